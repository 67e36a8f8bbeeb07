/**
 * The durable embedded backend. Importing this module registers it for
 * `file://<dir>` URLs (`file://./data`, `file:///var/lib/svc`; `?snapshotMiB=`
 * sets the journal size between snapshots).
 *
 * @example const storage = await openStorage('file://./data');
 */
import { registerBackend } from '../backends';
import { FileStorage } from './file-storage';
import { fileTarget } from './file-url';

registerBackend('file', async (url, options) => {
  const { dir, snapshotBytes } = fileTarget(url);
  return FileStorage.open(dir, snapshotBytes === undefined ? options : { ...options, snapshotBytes });
});

export { FileStorage, type FileStorageOptions, type OpenStats } from './file-storage';
