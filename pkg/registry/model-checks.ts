import type { ApiObject } from '../api/object';
import type { StatusCause } from '../api/errors';
import { validateMetadataUpdate, validateObjectMeta } from '../api/validation';
import { compileSchema } from './schema';
import type { Model } from './model';
import type { ObjectChecks } from './object-checks';

/** The schema of a model that declares none: anything goes, but `metadata` is still pruned (as Kubernetes does). */
const ANY_OBJECT = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

/**
 * The checks of one model's objects: its schema compiled once (pruning and
 * validation), then metadata rules. A Model's own objects are named
 * `<plural>.<group>`, so their names may hold dots.
 * Throws when the schema does not compile.
 */
export function checksForModel(model: Model): ObjectChecks {
  const schema = compileSchema(model.schema ?? ANY_OBJECT);
  const dns1123Subdomain = model.kind === 'Model' && model.group === 'apiextensions.svc.run';
  return {
    prune: (object) => schema.prune(object),
    validate: (object: ApiObject, current?: ApiObject): StatusCause[] => [
      ...validateObjectMeta(object.metadata, { dns1123Subdomain }),
      ...(current ? validateMetadataUpdate(current.metadata, object.metadata) : []),
      ...schema.validate(object),
    ],
  };
}
