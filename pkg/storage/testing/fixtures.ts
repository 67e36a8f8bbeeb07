import type { ApiObject } from '../../api/object';
import type { IndexSpec } from '../indexes';
import type { ResourceType, Storage } from '../interface';
import type { ListOptions } from '../query';

/** The type most cases store objects of. */
export const WIDGETS: ResourceType = 'widgets.conformance.svc.run';
/** A second type, for cases about types being independent. */
export const GADGETS: ResourceType = 'gadgets.conformance.svc.run';

/** A unique index: at most one object per `spec.code`. */
export const CODE_INDEX = 'spec.code';
/** A multi-valued index: one entry per element of `spec.tags`. */
export const TAGS_INDEX = 'spec.tags';
/** An ordered index (`valueSets`, ADR 0017), for filters and sorts with ties. */
export const COLOR_INDEX = 'spec.color';
/** A plain index of zero-padded numbers, for sorts. */
export const RANK_INDEX = 'spec.rank';

/** The free-form spec of the suite's objects; every field is optional. */
export interface WidgetSpec {
  /** Unique across the type (`spec.code` index). */
  code?: string;
  /** Multi-valued index `spec.tags`. */
  tags?: string[];
  color?: string;
  /** Zero-padded so that string order is numeric order, e.g. `03`. */
  rank?: string;
  /** Incremented by concurrent writers. */
  counter?: number;
  /** Any other field, for changes no index sees. */
  note?: string;
  /** Grouping used by the index-build cases. */
  group?: string;
}

/** An object's spec as a WidgetSpec (the suite only stores WidgetSpecs). */
export const specOf = (object: ApiObject): WidgetSpec => (object.spec ?? {}) as WidgetSpec;

/** The suite's indexes: one unique, one multi-valued, two plain ones to sort and filter on. */
export const TEST_INDEXES: IndexSpec[] = [
  { name: CODE_INDEX, unique: true, indexFunc: (o) => specOf(o).code },
  { name: TAGS_INDEX, indexFunc: (o) => specOf(o).tags },
  { name: COLOR_INDEX, valueSets: true, indexFunc: (o) => specOf(o).color },
  { name: RANK_INDEX, indexFunc: (o) => specOf(o).rank },
];

/**
 * A new object of the suite's types, as a client would send it.
 *
 * @example widget('ada', { color: 'red' }, { env: 'prod' })
 */
export function widget(name: string, spec: WidgetSpec = {}, labels?: Record<string, string>): ApiObject {
  const metadata: ApiObject['metadata'] = { name };
  if (labels) metadata.labels = labels;
  return { apiVersion: 'conformance.svc.run/v1', kind: 'Widget', metadata, spec };
}

/** The names of some objects, in their order. */
export const namesOf = (objects: readonly ApiObject[]): string[] => objects.map((o) => o.metadata.name ?? '');

/** The names `list` returns for `options`, in order. */
export async function listNames(storage: Storage, type: ResourceType, options?: ListOptions): Promise<string[]> {
  return namesOf((await storage.list(type, options)).items);
}

/** Parses a resourceVersion or revision as the integer it is, failing on anything else. */
export function asRevision(value: string | undefined): bigint {
  if (value === undefined || !/^\d+$/.test(value)) throw new Error(`"${value}" is not a decimal revision`);
  return BigInt(value);
}

/** An object's `metadata.resourceVersion` as an integer. */
export const revisionOf = (object: ApiObject): bigint => asRevision(object.metadata.resourceVersion);

/** A mutation that sets spec fields, for `Storage.update`. */
export const setSpec =
  (changes: WidgetSpec) =>
  (current: ApiObject): ApiObject => ({ ...current, spec: { ...specOf(current), ...changes } });

/** Creates objects sequentially, returning them as stored. */
export async function createAll(storage: Storage, type: ResourceType, objects: ApiObject[]): Promise<ApiObject[]> {
  const created: ApiObject[] = [];
  for (const object of objects) created.push(await storage.create(type, object));
  return created;
}
