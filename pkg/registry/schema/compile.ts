import type { ErrorObject, ValidateFunction } from 'ajv';
import type { StatusCause } from '../../api/errors';
import { newAjv } from './ajv-instance';
import { causesFromAjvErrors } from './causes';
import { SchemaCompileError } from './compile-error';
import { fieldPathOfPointer } from './field-path';
import { objectSchema, type SchemaProblem } from './object-schema';
import type { OpenApiSchema } from './openapi-schema';
import { pruneUnknownFields, type PruneResult } from './prune';

/** The result of pruning then validating one object: what the apiserver needs before a write. */
export interface CheckResult<T> extends PruneResult<T> {
  /** Every failing field of the pruned object; empty when it is valid. */
  causes: StatusCause[];
}

/**
 * A model's schema, compiled once, ready for every create and update.
 *
 * @example
 * const person = compileSchema(model.spec.schema);
 * const { object, unknownFields, causes } = person.pruneAndValidate(body);
 * if (causes.length) throw invalid({ kind: 'Person', name }, causes);
 */
export interface CompiledSchema {
  /** The normalised schema validation and pruning use: the model's, plus `apiVersion`, `kind`, `metadata`. */
  readonly schema: OpenApiSchema;
  /**
   * Every failing field of `object`, with Kubernetes field paths, reasons and
   * messages (see `causesFromAjvErrors`); `[]` when it is valid. Validate the
   * pruned object: undeclared fields are not reported here.
   */
  validate(object: unknown): StatusCause[];
  /**
   * A copy of `object` without the fields the schema does not declare (see
   * `pruneUnknownFields`); a 400 StatusError for an object nested absurdly deep or absurdly large.
   */
  prune<T>(object: T): PruneResult<T>;
  /** `prune`, then `validate` of the pruned object: the order the apiserver applies them in. */
  pruneAndValidate<T>(object: T): CheckResult<T>;
}

/**
 * Compiles a model's OpenAPI v3 schema (the schema of the whole object, e.g.
 * `{type: object, required: [spec], properties: {spec: …}}`). `$ref: "#"`
 * anywhere inside means "a whole object of this model".
 *
 * @throws SchemaCompileError listing every problem the checks find (an unsupported
 *   keyword, a `$ref` other than `"#"`, a value the JSON Schema meta-schema refuses
 *   such as `type: strin` or `maxLength: -1`); then, once those are fixed, the first
 *   of ajv's own compile errors (an unknown `format`, a pattern that is not a
 *   regular expression, `nullable` without `type`).
 */
export function compileSchema(modelSchema: unknown): CompiledSchema {
  const { schema, problems } = objectSchema(modelSchema);
  const validate = compileWithAjv(schema, problems);
  const compiled: CompiledSchema = {
    schema,
    validate: (object) => (validate(object) ? [] : causesFromAjvErrors(validate.errors ?? [], object)),
    prune: (object) => pruneUnknownFields(schema, object),
    pruneAndValidate: (object) => {
      const pruned = pruneUnknownFields(schema, object);
      return { ...pruned, causes: compiled.validate(pruned.object) };
    },
  };
  return compiled;
}

/**
 * The ajv validation function of a normalised schema. The problems already
 * found and the meta-schema's complaints are thrown together, as one
 * SchemaCompileError; so are ajv's compile errors.
 */
function compileWithAjv(schema: OpenApiSchema, problems: readonly SchemaProblem[]): ValidateFunction {
  const ajv = newAjv();
  const all = ajv.validateSchema(schema)
    ? [...problems]
    : [...problems, ...metaSchemaProblems(ajv.errors ?? [], schema)];
  if (all.length > 0) throw new SchemaCompileError(all);
  try {
    return ajv.compile(schema);
  } catch (err) {
    throw new SchemaCompileError([{ path: '', message: err instanceof Error ? err.message : String(err) }]);
  }
}

/**
 * The meta-schema's complaints, one per place: ajv reports a bad `type` three
 * times (enum, array, anyOf); the first says it best, with the allowed values.
 */
function metaSchemaProblems(errors: readonly ErrorObject[], schema: OpenApiSchema): SchemaProblem[] {
  const byPath = new Map<string, SchemaProblem>();
  for (const error of errors) {
    const path = fieldPathOfPointer(error.instancePath, schema);
    if (error.keyword === 'anyOf' || byPath.has(path)) continue;
    const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
    const message = `${error.message ?? error.keyword}${allowed ? `: ${allowed.map((v) => JSON.stringify(v)).join(', ')}` : ''}`;
    byPath.set(path, { path, message });
  }
  return [...byPath.values()];
}
