import { isStorageError, type StorageError, type StorageErrorCode } from '../errors';

const describeOutcome = (outcome: unknown): string =>
  outcome instanceof Error ? `${outcome.name}: ${outcome.message}` : `a ${typeof outcome} (${String(outcome)})`;

function checked(caught: unknown, settled: boolean, code: StorageErrorCode): StorageError {
  if (!settled) throw new Error(`expected a StorageError with code ${code}, but the call succeeded`);
  if (!isStorageError(caught)) {
    throw new Error(`expected a StorageError with code ${code}, got ${describeOutcome(caught)}`);
  }
  if (caught.code !== code) {
    throw new Error(`expected a StorageError with code ${code}, got code ${caught.code}: ${caught.message}`);
  }
  return caught;
}

/**
 * Awaits `promise` and returns the StorageError it rejects with, failing the
 * test when it resolves or rejects with anything else.
 *
 * @example const err = await expectStorageError(storage.get(type, 'gone'), 'NotFound');
 */
export async function expectStorageError(promise: Promise<unknown>, code: StorageErrorCode): Promise<StorageError> {
  try {
    await promise;
  } catch (err) {
    return checked(err, true, code);
  }
  return checked(undefined, false, code);
}

/** Like `expectStorageError`, for a synchronous call such as `indexStatus`. */
export function expectStorageErrorSync(call: () => unknown, code: StorageErrorCode): StorageError {
  try {
    call();
  } catch (err) {
    return checked(err, true, code);
  }
  return checked(undefined, false, code);
}
