import type { ApiObject } from '../../api/object';
import type { IndexSpec } from '../../storage/indexes';
import type { JsonSchema, Model, PrinterColumn } from '../model';
import { indexFuncFromPath } from '../index-path';

interface ModelSpec {
  group: string;
  version: string;
  names: { kind: string; singular?: string; plural: string; shortNames?: string[] };
  schema?: JsonSchema;
  indexes?: {
    name: string;
    path: string;
    unique?: boolean;
    order?: 'ASC' | 'DESC';
    valueSets?: boolean;
    filteredBy?: string[];
  }[];
  printerColumns?: PrinterColumn[];
}

/**
 * The Model a stored `Model` object declares. Throws when an index path does
 * not parse. `singular` defaults to the lower-cased kind, as in Kubernetes.
 */
export function modelFromObject(object: ApiObject): Model {
  const spec = object.spec as ModelSpec;
  const indexes: IndexSpec[] = (spec.indexes ?? []).map((i) => ({
    name: i.name,
    unique: i.unique ?? false,
    order: i.order ?? 'ASC',
    valueSets: i.valueSets ?? false,
    ...(i.filteredBy && i.filteredBy.length > 0 ? { filteredBy: i.filteredBy } : {}),
    indexFunc: indexFuncFromPath(i.path),
  }));
  return {
    group: spec.group,
    version: spec.version,
    kind: spec.names.kind,
    singular: spec.names.singular || spec.names.kind.toLowerCase(),
    plural: spec.names.plural,
    shortNames: spec.names.shortNames,
    schema: spec.schema,
    indexes,
    printerColumns: spec.printerColumns,
  };
}
