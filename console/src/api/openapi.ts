import { api } from './client';

/** One field of a model's `spec` that a plain form input can edit. */
export interface FormField {
  /** The field's path in the object, e.g. `spec.age`: the same path the server's causes name. */
  path: string;
  type: 'string' | 'integer' | 'number' | 'boolean';
  enum?: string[];
  required: boolean;
  description?: string;
}

interface Schema {
  type?: string;
  enum?: unknown[];
  required?: string[];
  description?: string;
  properties?: Record<string, Schema>;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
}

const PRIMITIVES = new Set(['string', 'integer', 'number', 'boolean']);

/** The `spec` fields of an object schema that are strings, numbers or booleans (nested objects and lists: YAML). */
export function formFields(schema: Schema | undefined): FormField[] {
  const spec = schema?.properties?.spec;
  const required = new Set(spec?.required ?? []);
  return Object.entries(spec?.properties ?? {})
    .filter(([, field]) => PRIMITIVES.has(field.type ?? ''))
    .map(([name, field]) => ({
      path: `spec.${name}`,
      type: field.type as FormField['type'],
      enum: field.enum?.map(String),
      required: required.has(name),
      description: field.description,
    }));
}

/** A model's object schema from the server's OpenAPI document of its group and version. */
export async function modelSchema(group: string, version: string, kind: string): Promise<Schema | undefined> {
  const doc = await api<{ components?: { schemas?: Record<string, Schema> } }>(
    'GET',
    group ? `/openapi/v3/apis/${group}/${version}` : `/openapi/v3/api/${version}`,
  );
  return Object.values(doc.components?.schemas ?? {}).find((s) =>
    s['x-kubernetes-group-version-kind']?.some((gvk) => gvk.group === group && gvk.kind === kind),
  );
}

/** A form value as the schema types it: numbers as numbers, booleans as booleans; empty is left out. */
export function typedValue(field: FormField, text: string): unknown {
  if (text === '') return undefined;
  if (field.type === 'boolean') return text === 'true';
  if (field.type === 'integer' || field.type === 'number') return Number(text);
  return text;
}
