import type { Storage, StorageOptions } from './interface';

/**
 * Opens a backend for a parsed URL; registered per URL scheme. `hosts` are the
 * URL's `host:port` entries: one, or several where the scheme takes a
 * comma-separated list (`redis+sentinel://h1:26379,h2:26379/…`), which `url`
 * shows as its first.
 */
export type BackendFactory = (url: URL, options: StorageOptions, hosts: readonly string[]) => Promise<Storage>;

const factories = new Map<string, BackendFactory>();

/** Registers a backend for a URL scheme, e.g. `registerBackend('memory', …)` for `memory://`. */
export function registerBackend(scheme: string, factory: BackendFactory): void {
  factories.set(scheme, factory);
}

/**
 * Opens the storage a URL names: `memory://`, `file://<dir>` (durable,
 * embedded), `redis://host:port/db` (`rediss://` for TLS), or Redis through
 * Sentinel or Cluster (`redis+sentinel://`, `redis+cluster://`). The error for an unknown scheme does not echo the
 * URL, which may carry a password.
 */
export async function openStorage(url: string, options: StorageOptions = {}): Promise<Storage> {
  let parsed: URL;
  let hosts: string[];
  try {
    ({ parsed, hosts } = parseStorageUrl(url));
  } catch {
    throw new Error('storage URL does not parse; expected e.g. file://./data, memory:// or redis://127.0.0.1:6379/0');
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  const factory = factories.get(scheme);
  if (!factory) {
    throw new Error(`no storage backend for scheme "${scheme}"; known: ${[...factories.keys()].sort().join(', ')}`);
  }
  return factory(parsed, options, hosts);
}

/** The URL with a comma-separated host list reduced to its first host, and the list. */
function parseStorageUrl(url: string): { parsed: URL; hosts: string[] } {
  const authority = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i.exec(url);
  if (authority === null) return { parsed: new URL(url), hosts: [] };
  const at = authority[2].lastIndexOf('@');
  const userinfo = authority[2].slice(0, at + 1);
  const hosts = authority[2].slice(at + 1).split(',');
  const first = `${authority[1]}${userinfo}${hosts[0]}${url.slice(authority[0].length)}`;
  return { parsed: new URL(first), hosts: hosts[0] === '' ? [] : hosts };
}
