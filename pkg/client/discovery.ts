import { isNotFound } from './errors';
import type { ResourceRef } from './resource';
import type { Transport } from './transport';

/** A served resource type as discovery describes it, e.g. persons in example.com/v1alpha1. */
export interface DiscoveredResource extends ResourceRef {
  kind: string;
  singular: string;
  verbs: string[];
  shortNames: string[];
  /** Whether `version` is its group's preferred version. */
  preferred: boolean;
}

interface ApiVersions {
  versions: string[];
}
interface ApiGroupList {
  groups: { name: string; versions: { version: string }[]; preferredVersion?: { version: string } }[];
}
interface ApiResourceList {
  resources: { name: string; singularName?: string; kind: string; verbs?: string[]; shortNames?: string[] }[];
}

/**
 * Every resource type the server serves (discovery, docs/api.md): `/api`, each
 * core version, `/apis`, and each group-version. Subresources (`persons/status`)
 * are left out. A group-version that disappears between the two requests is skipped.
 */
export async function discoverResources(transport: Transport, signal?: AbortSignal): Promise<DiscoveredResource[]> {
  const core = await transport.json<ApiVersions>({ method: 'GET', path: '/api', signal });
  const groups = await transport.json<ApiGroupList>({ method: 'GET', path: '/apis', signal });
  const versions = [
    ...core.versions.map((version, i) => ({ group: '', version, preferred: i === 0 })),
    ...groups.groups.flatMap((g) =>
      g.versions.map(({ version }) => ({
        group: g.name,
        version,
        preferred: version === (g.preferredVersion?.version ?? g.versions[0]?.version),
      })),
    ),
  ];
  const found = await Promise.all(versions.map((gv) => resourcesOf(transport, gv, signal)));
  return found.flat();
}

async function resourcesOf(
  transport: Transport,
  gv: { group: string; version: string; preferred: boolean },
  signal?: AbortSignal,
): Promise<DiscoveredResource[]> {
  const path = gv.group === '' ? `/api/${gv.version}` : `/apis/${gv.group}/${gv.version}`;
  let list: ApiResourceList;
  try {
    list = await transport.json<ApiResourceList>({ method: 'GET', path, signal });
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
  return list.resources
    .filter((r) => !r.name.includes('/'))
    .map((r) => ({
      group: gv.group,
      version: gv.version,
      plural: r.name,
      kind: r.kind,
      singular: r.singularName ?? '',
      verbs: r.verbs ?? [],
      shortNames: r.shortNames ?? [],
      preferred: gv.preferred,
    }));
}
