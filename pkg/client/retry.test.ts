import { ApiError } from './errors';
import { retryOnConflict } from './retry';

const conflict = () =>
  new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 409, reason: 'Conflict' });

/** An attempt that fails with `error()` on its first `failures` runs, then answers 'done'; counts its runs. */
function flaky(failures: number, error: () => Error) {
  const attempt = async () => {
    attempt.runs++;
    if (attempt.runs <= failures) throw error();
    return 'done';
  };
  attempt.runs = 0;
  return attempt;
}

describe('retryOnConflict', () => {
  it('runs the attempt again after a conflict and returns its first success', async () => {
    const attempt = flaky(2, conflict);
    expect(await retryOnConflict(attempt)).toBe('done');
    expect(attempt.runs).toBe(3);
  });

  it('throws the last conflict after the given number of runs', async () => {
    const attempt = flaky(5, conflict);
    await expect(retryOnConflict(attempt, 2)).rejects.toMatchObject({ code: 409 });
    expect(attempt.runs).toBe(2);
  });

  it('throws any other error at once', async () => {
    const attempt = flaky(1, () => new Error('boom'));
    await expect(retryOnConflict(attempt)).rejects.toThrow('boom');
    expect(attempt.runs).toBe(1);
  });
});
