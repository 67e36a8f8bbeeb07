import { openStorage, type Storage } from '../../pkg/storage';
import type { IndexLayout } from '../../pkg/storage/redis/keys';
import { openBenchSession, type BenchSession } from '../support/session';

/** The shared session (Redis, plain client, key prefix) with svc's Redis storage on it. */
export interface StorageBenchSession extends BenchSession {
  storage: Storage;
}

/**
 * Opens the benchmark session and svc's Redis storage under its key prefix
 * (`redis://…?keyPrefix=bench-<random>`), its index sets in `indexLayout`;
 * `close()` closes the storage too.
 */
export async function openStorageSession(indexLayout: IndexLayout = 'plain'): Promise<StorageBenchSession> {
  const session = await openBenchSession('storage');
  try {
    const storage = await openStorage(session.storeUrl, { indexLayout });
    session.onClose(() => storage.close());
    return { ...session, storage };
  } catch (err) {
    await session.close();
    throw err;
  }
}
