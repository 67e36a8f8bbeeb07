import { StatusError } from '../api/errors';
import { PasswordVerifier } from './password-verifier';

/** A verify function whose answers the test releases: records every call, and the most running at once. */
function controlledVerify() {
  const calls: { hash: string; password: string; answer: (ok: boolean) => void }[] = [];
  let running = 0;
  const stats = { maxRunning: 0 };
  const verify = (hash: string, password: string) =>
    new Promise<boolean>((resolve) => {
      running++;
      stats.maxRunning = Math.max(stats.maxRunning, running);
      calls.push({
        hash,
        password,
        answer: (ok) => {
          running--;
          resolve(ok);
        },
      });
    });
  return { calls, stats, verify };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('PasswordVerifier', () => {
  it('never runs more verifications at once than its concurrency; the rest wait their turn', async () => {
    const { calls, stats, verify } = controlledVerify();
    const verifier = new PasswordVerifier({ concurrency: 2, maxQueue: 10, verify, dummyHash: Promise.resolve('d') });
    const answers = Array.from({ length: 7 }, (_, i) => verifier.verify(`u${i}`, `h${i}`, 'pw'));
    await settle();
    expect(calls).toHaveLength(2);
    for (let answered = 0; answered < 7; answered++) {
      calls[answered].answer(answered % 2 === 0);
      await settle();
      expect(verifier.active).toBeLessThanOrEqual(2);
    }
    expect(await Promise.all(answers)).toEqual([true, false, true, false, true, false, true]);
    expect(stats.maxRunning).toBe(2);
    expect(verifier.active).toBe(0);
  });

  it('answers 503 at once when the queue is full, and serves again once it drains', async () => {
    const { calls, verify } = controlledVerify();
    const verifier = new PasswordVerifier({ concurrency: 1, maxQueue: 1, verify, dummyHash: Promise.resolve('d') });
    const first = verifier.verify('a', 'h', 'one');
    const second = verifier.verify('b', 'h', 'two');
    const refused = await Promise.race([
      verifier.verify('c', 'h', 'three').catch((err: unknown) => err),
      settle().then(() => 'still waiting'),
    ]);
    expect(refused).toBeInstanceOf(StatusError);
    expect((refused as StatusError).code).toBe(503);
    expect((refused as StatusError).headers['Retry-After']).toBe('1');
    calls[0].answer(true);
    await settle();
    calls[1].answer(true);
    await Promise.all([first, second]);
    const later = verifier.verify('c', 'h', 'three');
    await settle();
    calls[2].answer(true);
    expect(await later).toBe(true);
  });

  it('runs one verification for concurrent identical attempts, and a new one after it is answered', async () => {
    const { calls, verify } = controlledVerify();
    const verifier = new PasswordVerifier({ concurrency: 4, verify, dummyHash: Promise.resolve('d') });
    const same = Array.from({ length: 20 }, () => verifier.verify('ada', 'hash', 'guess'));
    const other = verifier.verify('ada', 'hash', 'another guess');
    await settle();
    expect(calls.map((c) => c.password)).toEqual(['guess', 'another guess']);
    calls[0].answer(false);
    calls[1].answer(false);
    expect(await Promise.all(same)).toEqual(Array(20).fill(false));
    await other;
    const again = verifier.verify('ada', 'hash', 'guess');
    await settle();
    expect(calls).toHaveLength(3);
    calls[2].answer(false);
    await again;
  });

  it('checks an account without a hash against the dummy hash, and refuses it even when that matches', async () => {
    const seen: string[] = [];
    const verify = async (hash: string) => {
      seen.push(hash);
      return true;
    };
    const verifier = new PasswordVerifier({ verify, dummyHash: Promise.resolve('$argon2id$dummy') });
    expect(await verifier.verify('nobody', undefined, 'whatever')).toBe(false);
    expect(seen).toEqual(['$argon2id$dummy']);
  });

  it('makes its dummy hash with the cost real hashes are made with', async () => {
    const seen: string[] = [];
    const verify = async (hash: string) => {
      seen.push(hash);
      return false;
    };
    const verifier = new PasswordVerifier({ verify, hashOptions: { memoryCostKiB: 1024, timeCost: 1 } });
    await verifier.verify('nobody', undefined, 'whatever');
    expect(seen[0]).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$/);
  });
});
