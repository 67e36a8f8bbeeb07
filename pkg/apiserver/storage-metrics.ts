import { Gauge, type Registry } from 'prom-client';
import type { Storage } from '../storage/interface';

/**
 * `svc_storage_used_memory_bytes`: the memory the store's server reports in use (Redis' `used_memory`), read
 * when `/metrics` is scraped (the store reuses a reading for a few seconds). Not registered for a store without
 * a server of its own (memory, file).
 */
export function registerStorageMetrics(registry: Registry, storage: Storage): void {
  const read = storage.usedMemoryBytes?.bind(storage);
  if (!read) return;
  new Gauge({
    name: 'svc_storage_used_memory_bytes',
    help: 'Memory the store reports in use (Redis INFO memory used_memory, summed over a Cluster), in bytes.',
    registers: [registry],
    async collect() {
      const bytes = await read();
      if (bytes !== undefined) this.set(bytes);
    },
  });
}
