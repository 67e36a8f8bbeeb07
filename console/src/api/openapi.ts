import { api } from './client';

/** The parts of an OpenAPI schema the console's forms read. */
export interface Schema {
  type?: string;
  enum?: unknown[];
  required?: string[];
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  $ref?: string;
  allOf?: Schema[];
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
}

/** A model's object schema, and what follows the `$ref`s of its OpenAPI document. */
export interface ModelSchema {
  object?: Schema;
  resolve: (schema: Schema) => Schema;
}

/** The kinds of field a form shows: a plain input, a choice, a group of fields, a list, or none (YAML only). */
export type FieldKind = 'text' | 'number' | 'choice' | 'object' | 'array' | 'other';

/** What input a (resolved) schema is edited with. */
export function fieldKind(schema: Schema): FieldKind {
  if (schema.enum || schema.type === 'boolean') return 'choice';
  if (schema.type === 'string') return 'text';
  if (schema.type === 'integer' || schema.type === 'number') return 'number';
  if (schema.type === 'array' && schema.items) return 'array';
  if (schema.properties) return 'object';
  return 'other';
}

/** `#/components/schemas/<name>` and `allOf: [one]` followed to the schema they name (cycles stop). */
export function resolver(schemas: Record<string, Schema>): (schema: Schema) => Schema {
  return (schema) => {
    let current = schema;
    for (let hops = 0; hops < 10; hops++) {
      const ref = current.$ref ?? (current.allOf?.length === 1 ? current.allOf[0].$ref : undefined);
      const target = ref?.startsWith('#/components/schemas/') ? schemas[ref.slice(21)] : undefined;
      if (!target) return current;
      current = target;
    }
    return current;
  };
}

/** A model's object schema from the server's OpenAPI document of its group and version. */
export async function modelSchema(group: string, version: string, kind: string): Promise<ModelSchema> {
  const doc = await api<{ components?: { schemas?: Record<string, Schema> } }>(
    'GET',
    group ? `/openapi/v3/apis/${group}/${version}` : `/openapi/v3/api/${version}`,
  );
  const schemas = doc.components?.schemas ?? {};
  const object = Object.values(schemas).find((s) =>
    s['x-kubernetes-group-version-kind']?.some((gvk) => gvk.group === group && gvk.kind === kind),
  );
  return { object, resolve: resolver(schemas) };
}

/** A typed input's text as the schema types it: numbers as numbers, booleans as booleans; empty is left out. */
export function typedValue(schema: Schema, text: string): unknown {
  if (text === '') return undefined;
  if (schema.type === 'boolean') return text === 'true';
  if (schema.type === 'integer' || schema.type === 'number') return Number(text);
  return text;
}

/** What an item added to a list starts as. */
export function emptyValue(schema: Schema): unknown {
  const kind = fieldKind(schema);
  if (kind === 'object') return {};
  if (kind === 'array') return [];
  if (kind === 'number') return 0;
  if (schema.type === 'boolean') return false;
  return schema.enum ? schema.enum[0] : '';
}
