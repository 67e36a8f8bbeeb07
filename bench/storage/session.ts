import { openStorage, type Storage } from '../../pkg/storage';
import { openBenchSession, type BenchSession } from '../support/session';

/** The shared session (Redis, plain client, key prefix) with svc's Redis storage on it. */
export interface StorageBenchSession extends BenchSession {
  storage: Storage;
}

/**
 * Opens the benchmark session and svc's Redis storage under its key prefix
 * (`redis://…?keyPrefix=bench-<random>`); `close()` closes the storage too.
 */
export async function openStorageSession(): Promise<StorageBenchSession> {
  const session = await openBenchSession('storage');
  try {
    const storage = await openStorage(session.storeUrl);
    session.onClose(() => storage.close());
    return { ...session, storage };
  } catch (err) {
    await session.close();
    throw err;
  }
}
