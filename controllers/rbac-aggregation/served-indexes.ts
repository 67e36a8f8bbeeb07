import type { ApiClient, DiscoveredResource } from '../../pkg/client';

/** The index names of the model served for a group and plural; undefined when none is served. */
export type IndexesOf = (group: string, plural: string) => readonly string[] | undefined;

/** An object schema of an OpenAPI v3 group-version document, as far as it is read here. */
interface ObjectSchema {
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
  'x-svc-indexes'?: string[];
}

/**
 * Reads which models the apiserver serves (discovery) and their indexes (each group-version's OpenAPI document,
 * `x-svc-indexes`), over HTTP, remembering the answers for `ttlMs` so that the roles reconciled together ask once.
 */
export class ServedIndexes {
  private discovered: { at: number; resources: Promise<DiscoveredResource[]> } | undefined;
  private readonly documents = new Map<string, { at: number; schemas: Promise<ObjectSchema[]> }>();

  constructor(
    private readonly client: ApiClient,
    private readonly ttlMs = 2000,
  ) {}

  /** A lookup answering for the given resources (fetched now), for `unusableConditions`. */
  async lookup(resources: readonly { group: string; plural: string }[], signal?: AbortSignal): Promise<IndexesOf> {
    const answers = new Map<string, readonly string[] | undefined>();
    for (const { group, plural } of resources) {
      answers.set(`${group}/${plural}`, await this.indexesOf(group, plural, signal));
    }
    return (group, plural) => answers.get(`${group}/${plural}`);
  }

  private async indexesOf(group: string, plural: string, signal?: AbortSignal): Promise<string[] | undefined> {
    const served = (await this.resources(signal)).find((r) => r.group === group && r.plural === plural && r.preferred);
    if (served === undefined) return undefined;
    const schemas = await this.schemas(group, served.version, signal);
    const schema = schemas.find((s) =>
      (s['x-kubernetes-group-version-kind'] ?? []).some((gvk) => gvk.group === group && gvk.kind === served.kind),
    );
    return schema?.['x-svc-indexes'];
  }

  private resources(signal?: AbortSignal): Promise<DiscoveredResource[]> {
    if (this.discovered === undefined || Date.now() - this.discovered.at > this.ttlMs) {
      const resources = this.client.discover({ signal });
      resources.catch(() => (this.discovered = undefined));
      this.discovered = { at: Date.now(), resources };
    }
    return this.discovered.resources;
  }

  private schemas(group: string, version: string, signal?: AbortSignal): Promise<ObjectSchema[]> {
    const path = group === '' ? `/openapi/v3/api/${version}` : `/openapi/v3/apis/${group}/${version}`;
    const cached = this.documents.get(path);
    if (cached !== undefined && Date.now() - cached.at <= this.ttlMs) return cached.schemas;
    const schemas = this.client
      .request<{ components?: { schemas?: Record<string, ObjectSchema> } }>({ method: 'GET', path, signal })
      .then((doc) => Object.values(doc.components?.schemas ?? {}));
    schemas.catch(() => this.documents.delete(path));
    this.documents.set(path, { at: Date.now(), schemas });
    return schemas;
  }
}
