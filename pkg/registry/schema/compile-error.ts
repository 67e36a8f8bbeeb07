import type { StatusCause } from '../../api/errors';
import type { SchemaProblem } from './object-schema';

/**
 * A model's schema that cannot be compiled. It lists every problem found, so that
 * the apiserver can refuse the Model with a 422 whose causes point into it.
 *
 * @example
 * try { compileSchema(model.spec.schema) }
 * catch (err) { if (err instanceof SchemaCompileError) throw invalid(subject, err.causes('spec.schema')) }
 */
export class SchemaCompileError extends Error {
  override readonly name = 'SchemaCompileError';

  constructor(readonly problems: readonly SchemaProblem[]) {
    super(`invalid schema: ${problems.map(describe).join('; ')}`);
  }

  /** One `FieldValueInvalid` cause per problem, its field under `prefix` (where the schema sits in the Model). */
  causes(prefix = 'spec.schema'): StatusCause[] {
    return this.problems.map((p) => ({
      field: p.path === '' ? prefix : `${prefix}.${p.path}`,
      reason: 'FieldValueInvalid',
      message: p.message,
    }));
  }
}

const describe = (p: SchemaProblem): string => (p.path === '' ? p.message : `${p.path}: ${p.message}`);
