import type { Storage, StorageOptions } from './interface';

/** Opens a backend for a parsed URL; registered per URL scheme. */
export type BackendFactory = (url: URL, options: StorageOptions) => Promise<Storage>;

const factories = new Map<string, BackendFactory>();

/** Registers a backend for a URL scheme, e.g. `registerBackend('memory', …)` for `memory://`. */
export function registerBackend(scheme: string, factory: BackendFactory): void {
  factories.set(scheme, factory);
}

/**
 * Opens the storage a URL names: `memory://`, `file://<dir>` (durable,
 * embedded) or `redis://host:port/db` (`rediss://` for TLS). The error for an unknown scheme does not echo the
 * URL, which may carry a password.
 */
export async function openStorage(url: string, options: StorageOptions = {}): Promise<Storage> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('storage URL does not parse; expected e.g. file://./data, memory:// or redis://127.0.0.1:6379/0');
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  const factory = factories.get(scheme);
  if (!factory) {
    throw new Error(`no storage backend for scheme "${scheme}"; known: ${[...factories.keys()].sort().join(', ')}`);
  }
  return factory(parsed, options);
}
