/**
 * The embedded storage backend. Importing this module registers it for
 * `memory://` URLs: `openStorage('memory://')` returns a new, empty
 * MemoryStorage (every call a separate store).
 */
import { registerBackend } from '../backends';
import { MemoryStorage } from './memory-storage';

registerBackend('memory', async (_url, options) => new MemoryStorage(options));

export { MemoryStorage } from './memory-storage';
