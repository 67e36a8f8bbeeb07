/** The storage layer's public surface. Importing it registers every backend. */
export * from './interface';
export * from './indexes';
export * from './query';
export * from './watch';
export * from './errors';
export { openStorage, registerBackend } from './backends';
export { MemoryStorage } from './memory';
export { FileStorage } from './file';
export { RedisStorage } from './redis';
