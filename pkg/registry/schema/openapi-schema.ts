/**
 * The subset of an OpenAPI v3.0 schema object that this package reads. A model's
 * schema may carry any of the keywords in {@link SUPPORTED_KEYWORDS}; everything
 * else is refused when the schema is compiled, as Kubernetes refuses fields its
 * `JSONSchemaProps` does not know.
 *
 * @example
 * const person: OpenApiSchema = {
 *   type: 'object', required: ['spec'],
 *   properties: { spec: { type: 'object', properties: { name: { type: 'string', maxLength: 100 } } } },
 * };
 */
export interface OpenApiSchema {
  type?: string;
  format?: string;
  nullable?: boolean;
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, OpenApiSchema>;
  additionalProperties?: OpenApiSchema | boolean;
  items?: OpenApiSchema;
  allOf?: OpenApiSchema[];
  anyOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  not?: OpenApiSchema;
  minimum?: number;
  maximum?: number;
  /** OpenAPI 3.0 form (`true` with `minimum`); a number (JSON Schema form) is accepted too. */
  exclusiveMinimum?: boolean | number;
  /** OpenAPI 3.0 form (`true` with `maximum`); a number (JSON Schema form) is accepted too. */
  exclusiveMaximum?: boolean | number;
  /** Only `"#"`: the model's whole object schema (docs/api.md). */
  $ref?: string;
  /** Keep fields this node does not declare instead of pruning them. */
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  /** The value is a whole object: its `apiVersion`, `kind` and `metadata` are kept as given. */
  'x-kubernetes-embedded-resource'?: boolean;
  /** The value is an integer or a string. */
  'x-kubernetes-int-or-string'?: boolean;
  [keyword: string]: unknown;
}

/** Keywords that hold one subschema. */
export const SCHEMA_KEYWORDS = ['items', 'not'] as const;
/** Keywords that hold a list of subschemas. */
export const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf'] as const;

/**
 * Every keyword a model's schema may use: OpenAPI 3.0's schema object, `$ref: "#"`,
 * and the `x-kubernetes-*` extensions this platform understands. Other `x-` vendor
 * extensions are allowed and ignored. `x-kubernetes-validations` (CEL) is not
 * supported and is refused rather than silently not enforced.
 */
export const SUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'title',
  'description',
  'default',
  'example',
  'externalDocs',
  'deprecated',
  'nullable',
  'readOnly',
  'writeOnly',
  'enum',
  'required',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'properties',
  'additionalProperties',
  'items',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  '$ref',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
]);
