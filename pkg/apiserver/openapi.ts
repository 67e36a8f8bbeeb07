import { collectionPathOf, type JsonSchema, type Model } from '../registry/model';
import { withDefaultIndexes } from '../storage/indexes';
import type { SchemeManager } from '../registry/scheme';
import { SVC_VERSION } from './version';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';
const STATUS = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';

/**
 * OpenAPI v3 documents built from the registered schemas (docs/api.md, docs/kubectl.md):
 * an index at `/openapi/v3` naming one document per group-version, each
 * tagging schemas and PATCH operations with `x-kubernetes-group-version-kind`,
 * each object schema with the model's index names (`x-svc-indexes`),
 * and listing the `fieldValidation` parameter, so that kubectl leaves
 * validation to the server.
 */
export class OpenApi {
  constructor(private readonly schemes: SchemeManager) {}

  /** GET /openapi/v3 */
  index() {
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const gv of this.groupVersions()) paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}` };
    return { paths };
  }

  /** GET /openapi/v3/apis/<group>/<version> or /openapi/v3/api/<version>; undefined when nothing is served there. */
  document(groupVersionPath: string) {
    const models = this.schemes
      .all()
      .map((r) => r.model)
      .filter((m) => gvPath(m) === groupVersionPath);
    if (models.length === 0) return undefined;
    const schemas: Record<string, unknown> = { ...metaSchemas() };
    const paths: Record<string, unknown> = {};
    for (const m of models) {
      schemas[schemaName(m)] = objectSchema(m);
      schemas[`${schemaName(m)}List`] = listSchema(m);
      Object.assign(paths, modelPaths(m));
    }
    return { openapi: '3.0.0', info: { title: 'svc', version: SVC_VERSION }, paths, components: { schemas } };
  }

  private groupVersions(): string[] {
    return [...new Set(this.schemes.all().map((r) => gvPath(r.model)))].sort();
  }
}

const gvPath = (m: Model) => (m.group ? `apis/${m.group}/${m.version}` : `api/${m.version}`);

/** Kubernetes names a CRD's schema by its reversed group: `com.example.v1alpha1.Person`. */
const schemaName = (m: Model) =>
  [...(m.group ? m.group.split('.').reverse() : ['io', 'svc', 'core']), m.version, m.kind].join('.');

const gvk = (m: Model) => ({ group: m.group, version: m.version, kind: m.kind });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function objectSchema(m: Model): JsonSchema {
  const own = rewriteSelfRefs(
    m.schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    schemaName(m),
  ) as JsonSchema;
  const properties = { ...((own.properties as Record<string, unknown>) ?? {}) };
  properties.apiVersion = { type: 'string', description: 'APIVersion of this object' };
  properties.kind = { type: 'string', description: 'Kind of this object' };
  properties.metadata = { allOf: [ref(OBJECT_META)] };
  return {
    ...own,
    type: 'object',
    properties,
    'x-kubernetes-group-version-kind': [gvk(m)],
    // What selectors, sorts and conditional rules may name (docs/api.md).
    'x-svc-indexes': withDefaultIndexes(m.indexes ?? []).map((spec) => spec.name),
  };
}

function listSchema(m: Model): JsonSchema {
  return {
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { allOf: [ref(LIST_META)] },
      items: { type: 'array', items: ref(schemaName(m)) },
    },
    'x-kubernetes-group-version-kind': [{ ...gvk(m), kind: `${m.kind}List` }],
  };
}

/** `$ref: "#"` means "the whole object" in a model's schema; in the document it names the object's schema. */
function rewriteSelfRefs(node: unknown, name: string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteSelfRefs(n, name));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node))
    out[k] = k === '$ref' && v === '#' ? `#/components/schemas/${name}` : rewriteSelfRefs(v, name);
  return out;
}

function modelPaths(m: Model) {
  const collection = collectionPathOf(m);
  const query = (name: string, description: string) => ({ name, in: 'query', description, schema: { type: 'string' } });
  const writeParams = [
    query('dryRun', 'All: validate and authorise without writing'),
    query('fieldManager', 'Name of the actor making the change'),
    query('fieldValidation', 'Strict, Warn or Ignore: what to do with fields the schema does not declare'),
  ];
  const listParams = [
    'labelSelector',
    'fieldSelector',
    'limit',
    'continue',
    'page',
    'size',
    'sort',
    'resourceVersion',
    'timeoutSeconds',
    'watch',
  ].map((p) => query(p, p));
  const body = (schema: unknown, types: string[]) => ({
    required: true,
    content: Object.fromEntries(types.map((t) => [t, { schema }])),
  });
  const ok = (schema: unknown) => ({ '200': { description: 'OK', content: { 'application/json': { schema } } } });
  const op = (action: string, extra: Record<string, unknown>) => ({
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk(m),
    ...extra,
  });
  const patchTypes = [
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/strategic-merge-patch+json',
    'application/apply-patch+yaml',
  ];
  const nameParam = { name: 'name', in: 'path', required: true, schema: { type: 'string' } };
  const object = ref(schemaName(m));
  return {
    [collection]: {
      get: op('list', {
        operationId: `list${m.kind}`,
        parameters: listParams,
        responses: ok(ref(`${schemaName(m)}List`)),
      }),
      post: op('post', {
        operationId: `create${m.kind}`,
        parameters: writeParams,
        requestBody: body(object, ['application/json', 'application/yaml']),
        responses: { '201': { description: 'Created', content: { 'application/json': { schema: object } } } },
      }),
      delete: op('deletecollection', {
        operationId: `deletecollection${m.kind}`,
        parameters: [...listParams, ...writeParams],
        responses: ok(ref(`${schemaName(m)}List`)),
      }),
    },
    [`${collection}/{name}`]: {
      parameters: [nameParam],
      get: op('get', { operationId: `read${m.kind}`, responses: ok(object) }),
      put: op('put', {
        operationId: `replace${m.kind}`,
        parameters: writeParams,
        requestBody: body(object, ['application/json', 'application/yaml']),
        responses: ok(object),
      }),
      patch: op('patch', {
        operationId: `patch${m.kind}`,
        parameters: [...writeParams, query('force', 'Force server-side apply')],
        requestBody: body({ type: 'object' }, patchTypes),
        responses: ok(object),
      }),
      delete: op('delete', { operationId: `delete${m.kind}`, parameters: writeParams, responses: ok(ref(STATUS)) }),
    },
    [`${collection}/{name}/status`]: {
      parameters: [nameParam],
      get: op('get', { operationId: `read${m.kind}Status`, responses: ok(object) }),
      put: op('put', {
        operationId: `replace${m.kind}Status`,
        parameters: writeParams,
        requestBody: body(object, ['application/json']),
        responses: ok(object),
      }),
      patch: op('patch', {
        operationId: `patch${m.kind}Status`,
        parameters: writeParams,
        requestBody: body({ type: 'object' }, patchTypes),
        responses: ok(object),
      }),
    },
  };
}

function metaSchemas(): Record<string, unknown> {
  const str = { type: 'string' };
  const map = { type: 'object', additionalProperties: str };
  return {
    [OBJECT_META]: {
      type: 'object',
      description: 'Standard object metadata',
      properties: {
        name: str,
        generateName: str,
        uid: str,
        resourceVersion: str,
        labels: map,
        annotations: map,
        finalizers: { type: 'array', items: str },
        generation: { type: 'integer', format: 'int64' },
        version: { type: 'integer', format: 'int64' },
        creationTimestamp: { type: 'string', format: 'date-time' },
        deletionTimestamp: { type: 'string', format: 'date-time' },
      },
    },
    [LIST_META]: {
      type: 'object',
      properties: { resourceVersion: str, continue: str, remainingItemCount: { type: 'integer' } },
    },
    [STATUS]: {
      type: 'object',
      properties: {
        apiVersion: str,
        kind: str,
        status: str,
        message: str,
        reason: str,
        code: { type: 'integer' },
        details: { type: 'object' },
      },
    },
  };
}
