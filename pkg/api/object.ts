/**
 * The shape every stored object shares (docs/api.md): Kubernetes' TypeMeta and
 * ObjectMeta, plus `metadata.version`, a counter of the object's writes for optimistic locking.
 */

/** Metadata of an object. Fields marked "server" are owned by the server: a client's values are ignored. */
export interface ObjectMeta {
  /** ≤253 chars, `[a-z0-9-]`, alphanumeric at both ends (a Model's name may hold dots). */
  name?: string;
  /** Prefix for a server-generated name, used on create when `name` is absent, e.g. `person-` → `person-x7k2q`. */
  generateName?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  /** server: a random UUID fixed at create. */
  uid?: string;
  /** server: RFC 3339 UTC with milliseconds, e.g. `2026-11-22T02:28:01.123Z`. */
  creationTimestamp?: string;
  /** server: set once by the first DELETE (docs/api.md). */
  deletionTimestamp?: string;
  /** server: 1 at create, +1 whenever something outside `metadata` and `status` changes. */
  generation?: number;
  /** server: 1 at create, +1 on every write. */
  version?: number;
  /** server: the type's revision at the object's last write, an opaque decimal string. */
  resourceVersion?: string;
}

/** Any object of any model: `apiVersion`, `kind`, `metadata`, and free-form `spec`/`status`. */
export interface ApiObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  spec?: unknown;
  status?: unknown;
  [field: string]: unknown;
}

/**
 * Every field `metadata` may hold: Kubernetes' ObjectMeta and `version`. Any
 * other is pruned on a write, as Kubernetes prunes a custom resource's metadata
 * (docs/api.md). Fields svc does not use (`namespace`, `ownerReferences`,
 * `managedFields`…) are kept as given, for the clients that read them.
 */
export const OBJECT_META_FIELDS = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'version',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
] as const;

/** The metadata fields only the server may set; a client's values for them are ignored. */
export const SERVER_OWNED_METADATA = [
  'uid',
  'creationTimestamp',
  'deletionTimestamp',
  'generation',
  'version',
  'resourceVersion',
] as const;
