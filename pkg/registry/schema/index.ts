/**
 * Schema validation and pruning of a model's objects: compile a model's OpenAPI
 * v3 schema once, then prune and validate every object written through its API.
 */
export { compileSchema, type CompiledSchema, type CheckResult } from './compile';
export { SchemaCompileError } from './compile-error';
export { objectSchema, PLATFORM_FIELDS, type SchemaProblem } from './object-schema';
export type { OpenApiSchema } from './openapi-schema';
export type { PruneResult } from './prune';
export {
  unknownFieldCauses,
  unknownFieldMessage,
  unknownFieldWarnings,
  MAX_UNKNOWN_FIELD_WARNINGS,
} from './unknown-fields';
export { formatFieldPath, fieldPathOfPointer, type PathSegment } from './field-path';
export { assertWithinLimits, MAX_NESTING_DEPTH, MAX_VALUES, type ShapeLimits } from '../../util/json-limits';
