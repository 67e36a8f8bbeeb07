import { formatApiVersion } from '../api/group-version';
import type { IndexSpec } from '../storage/indexes';
import type { ResourceType } from '../storage/interface';

/** An OpenAPI v3 schema node, as a model declares it. */
export type JsonSchema = Record<string, unknown>;

/** A column `kubectl get` prints for a model (Kubernetes' additionalPrinterColumns). */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  /** A simple JSON path into the object, e.g. `.spec.age`. */
  jsonPath: string;
  description?: string;
}

/**
 * A registered model: a resource type with generated APIs, e.g.
 * `{group: 'example.com', version: 'v1alpha1', kind: 'Person', singular: 'person', plural: 'persons', schema}`.
 * Platform kinds use the core group `""` (served under `/api/v1alpha1`) or a `*.svc.run` group.
 */
export interface Model {
  group: string;
  version: string;
  kind: string;
  singular: string;
  plural: string;
  /** The OpenAPI v3 schema of the whole object; absent means "anything goes" (preserved as given, but for unknown `metadata` fields). */
  schema?: JsonSchema;
  /** Indexes beyond the defaults (`metadata.name`, `metadata.labels`, timestamps). */
  indexes?: IndexSpec[];
  printerColumns?: PrinterColumn[];
  /** Short names for kubectl, e.g. `['ps']`. */
  shortNames?: string[];
  /** Served verbs; default all of them. Platform kinds may narrow them. */
  verbs?: string[];
  /**
   * Top-level fields where an unknown field is always 422, whatever `fieldValidation` says: fields whose pruned
   * remainder would mean more than was written (a rule that loses a misspelled narrowing grants the whole type).
   */
  strictFields?: string[];
}

/** The `apiVersion` objects of the model carry: `example.com/v1alpha1`, or `v1alpha1` for the core group. */
export const apiVersionOf = (m: Pick<Model, 'group' | 'version'>): string => formatApiVersion(m.group, m.version);

/** The storage type key: `persons.example.com`, or `roles` for the core group. */
export const storageTypeOf = (m: Pick<Model, 'group' | 'plural'>): ResourceType =>
  m.group ? `${m.plural}.${m.group}` : m.plural;

/** The collection path: `/apis/example.com/v1alpha1/persons` or `/api/v1alpha1/roles`. */
export const collectionPathOf = (m: Pick<Model, 'group' | 'version' | 'plural'>): string =>
  m.group ? `/apis/${m.group}/${m.version}/${m.plural}` : `/api/${m.version}/${m.plural}`;

/**
 * A new object's status: a copy of the `default` the schema gives `status` (e.g. `{phase: 'DRAFT'}`), or undefined
 * when it gives none. Kubernetes shows such a default on a custom resource created without a status; svc stores it.
 */
export function initialStatusOf(model: Pick<Model, 'schema'>): unknown {
  const properties = model.schema?.properties as Record<string, JsonSchema | undefined> | undefined;
  const initial = properties?.status?.default;
  return initial === undefined ? undefined : structuredClone(initial);
}
