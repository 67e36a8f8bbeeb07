import { splitApiVersion } from '../api/group-version';
import type { ApiClient, DiscoveredResource } from '../client';

/**
 * The resource type a command line names: a plural, singular, kind or short
 * name (any case), optionally `<resource>.<group>` (`persons.example.com`).
 * The group's preferred version wins; the core group wins over other groups.
 * Undefined when discovery lists no such type.
 */
export function findResource(discovered: DiscoveredResource[], arg: string): DiscoveredResource | undefined {
  const wanted = arg.toLowerCase();
  const dot = wanted.indexOf('.');
  const attempts = [{ name: wanted, group: undefined as string | undefined }];
  if (dot > 0) attempts.unshift({ name: wanted.slice(0, dot), group: wanted.slice(dot + 1) });
  for (const { name, group } of attempts) {
    const matches = discovered.filter((r) => (group === undefined || r.group === group) && namesOf(r).includes(name));
    const best = matches.sort(byPreference)[0];
    if (best) return best;
  }
  return undefined;
}

/**
 * The resource type a command line names (see findResource). When there is none it is the server's discovery that
 * says no, so the error is one from the server (exit 1), as with kubectl, not a usage error.
 */
export function resolveResource(discovered: DiscoveredResource[], arg: string): DiscoveredResource {
  const found = findResource(discovered, arg);
  if (!found) throw unknownResourceType(arg);
  return found;
}

/**
 * kubectl explain's `RESOURCE[.field.path]`: the longest leading part of `arg` (split at dots) that names a resource
 * type, optionally with its group (`persons.example.com.spec.age`), and the field path after it.
 */
export function resolveWithFieldPath(
  discovered: DiscoveredResource[],
  arg: string,
): { resource: DiscoveredResource; path: string[] } {
  const parts = arg.split('.');
  for (let length = parts.length; length > 0; length--) {
    const resource = findResource(discovered, parts.slice(0, length).join('.'));
    if (resource) return { resource, path: parts.slice(length) };
  }
  throw unknownResourceType(parts[0] ?? '');
}

const unknownResourceType = (arg: string) => new Error(`the server doesn't have a resource type "${arg}"`);

/** The resource of an object's `apiVersion` and `kind`; undefined when the server serves no such type. */
export function resourceOfKind(
  discovered: DiscoveredResource[],
  apiVersion: string,
  kind: string,
): DiscoveredResource | undefined {
  const groupVersion = splitApiVersion(apiVersion);
  if (groupVersion === undefined) return undefined;
  const { group, version } = groupVersion;
  return discovered.find((r) => r.group === group && r.version === version && r.kind === kind);
}

/** Discovery, fetched once per command run. */
export class Discovery {
  private cached?: Promise<DiscoveredResource[]>;

  constructor(private readonly client: ApiClient) {}

  /** The served resource types (cached; `refresh` fetches them again). */
  all(refresh = false): Promise<DiscoveredResource[]> {
    if (refresh || !this.cached) this.cached = this.client.discover();
    return this.cached;
  }

  /** The type a command line names (see resolveResource). */
  async resolve(arg: string): Promise<DiscoveredResource> {
    return resolveResource(await this.all(), arg);
  }
}

const namesOf = (r: DiscoveredResource): string[] =>
  [r.plural, r.singular, r.kind.toLowerCase(), ...r.shortNames.map((s) => s.toLowerCase())].filter(Boolean);

const byPreference = (a: DiscoveredResource, b: DiscoveredResource): number =>
  Number(b.group === '') - Number(a.group === '') || Number(b.preferred) - Number(a.preferred);
