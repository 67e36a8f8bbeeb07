import { formatApiVersion } from '../api/group-version';
import { RESOURCE_VERBS } from '../api/verbs';
import type { Model } from '../registry/model';
import type { SchemeManager } from '../registry/scheme';
import { CORE_V1 } from './core-v1';

/** The version of the core group, served at `/api/v1alpha1` (and `/apis/v1alpha1` for kubectl). */
export const CORE_VERSION = 'v1alpha1';

const STATUS_VERBS = ['get', 'patch', 'update'];

/**
 * Kubernetes discovery documents built from the served models (docs/api.md):
 * `APIVersions`, `APIGroupList`, `APIGroup`, `APIResourceList`. Every
 * resource is cluster-scoped (`namespaced: false`), and a main resource is
 * listed before its `/status` (client-node picks the first match by kind).
 */
export class Discovery {
  constructor(private readonly schemes: SchemeManager) {}

  /**
   * GET /api: the core version, once a core resource is served (kubectl refuses an empty resource list), then
   * Kubernetes' `v1` with its read-only `services` (ADR 0016). The first is the preferred one.
   */
  apiVersions(serverAddress: string) {
    const served = this.models().some((m) => m.group === '');
    return {
      kind: 'APIVersions',
      versions: served ? [CORE_VERSION, CORE_V1] : [CORE_V1],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
    };
  }

  /** GET /apis: every group but the core one, each with its versions. */
  groupList() {
    return { kind: 'APIGroupList', apiVersion: 'v1', groups: this.groupNames().map((g) => this.groupDoc(g)!) };
  }

  /** GET /apis/<group>; undefined when no model serves the group. */
  group(name: string) {
    if (name === '' || !this.groupNames().includes(name)) return undefined;
    return { kind: 'APIGroup', apiVersion: 'v1', ...this.groupDoc(name)! };
  }

  /** GET /api/v1alpha1 or /apis/<group>/<version>; undefined when nothing is served there. */
  resources(group: string, version: string) {
    const models = this.models().filter((m) => m.group === group && m.version === version);
    if (models.length === 0 && group !== '') return undefined;
    return {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: formatApiVersion(group, version),
      resources: models.flatMap((m) => [mainResource(m), statusResource(m)]),
    };
  }

  /** The discovery paths, for `GET /`: `/api`, `/api/v1alpha1`, `/api/v1`, `/apis`, and `/apis/<group>[/<version>]` of each group. */
  paths(): string[] {
    const groups = this.groupNames().flatMap((g) => [
      `/apis/${g}`,
      ...this.groupDoc(g)!.versions.map((v) => `/apis/${v.groupVersion}`),
    ]);
    return ['/api', `/api/${CORE_VERSION}`, `/api/${CORE_V1}`, '/apis', ...groups];
  }

  private models(): Model[] {
    return this.schemes.all().map((r) => r.model);
  }

  private groupNames(): string[] {
    return [
      ...new Set(
        this.models()
          .map((m) => m.group)
          .filter((g) => g !== ''),
      ),
    ].sort();
  }

  private groupDoc(name: string) {
    const versions = [
      ...new Set(
        this.models()
          .filter((m) => m.group === name)
          .map((m) => m.version),
      ),
    ].sort();
    if (versions.length === 0) return undefined;
    const entries = versions.map((version) => ({ groupVersion: formatApiVersion(name, version), version }));
    return { name, versions: entries, preferredVersion: entries[entries.length - 1] };
  }
}

function mainResource(m: Model) {
  const resource: Record<string, unknown> = {
    name: m.plural,
    singularName: m.singular,
    namespaced: false,
    kind: m.kind,
    verbs: [...(m.verbs ?? RESOURCE_VERBS)].sort(),
  };
  if (m.shortNames?.length) resource.shortNames = m.shortNames;
  return resource;
}

const statusResource = (m: Model) => ({
  name: `${m.plural}/status`,
  singularName: '',
  namespaced: false,
  kind: m.kind,
  verbs: STATUS_VERBS,
});
