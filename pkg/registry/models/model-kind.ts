import type { ApiObject } from '../../api/object';
import { conflict, invalid, type StatusCause } from '../../api/errors';
import type { SchemeManager } from '../scheme';
import type { Model } from '../model';
import type { StoreHooks } from '../resource-store';
import { modelFromObject } from './model-object';
import { validateModel } from '../model-validation';
import { checksForModel } from '../model-checks';
import { SchemaCompileError } from '../schema';

/** The group of platform extension kinds. */
export const APIEXTENSIONS_GROUP = 'apiextensions.svc.run';

/**
 * The declarative `Model` kind (docs/api.md): a stored object any apiserver
 * replica picks up through watch and serves. Named `<plural>.<group>`.
 */
export const MODEL_KIND: Model = {
  group: APIEXTENSIONS_GROUP,
  version: 'v1alpha1',
  kind: 'Model',
  singular: 'model',
  plural: 'models',
  schema: {
    type: 'object',
    required: ['spec'],
    properties: {
      spec: {
        type: 'object',
        required: ['group', 'version', 'names'],
        properties: {
          group: { type: 'string', minLength: 1 },
          version: { type: 'string', minLength: 1 },
          names: {
            type: 'object',
            required: ['kind', 'plural'],
            properties: {
              kind: { type: 'string', minLength: 1 },
              singular: { type: 'string' },
              plural: { type: 'string', minLength: 1 },
              shortNames: { type: 'array', items: { type: 'string' } },
            },
          },
          schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          indexes: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'path'],
              properties: {
                name: { type: 'string', minLength: 1 },
                path: { type: 'string', minLength: 1 },
                unique: { type: 'boolean' },
                order: { type: 'string', enum: ['ASC', 'DESC'] },
                // Redis: pages filtered by one value of this index cost O(log n + page) (one more write per value).
                valueSets: { type: 'boolean' },
                // Pages of one value of each named index, sorted by this one, cost O(log n + page) (ADR 0023).
                filteredBy: { type: 'array', items: { type: 'string', minLength: 1 } },
              },
            },
          },
          printerColumns: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'type', 'jsonPath'],
              properties: {
                name: { type: 'string' },
                type: { type: 'string', enum: ['string', 'integer', 'number', 'boolean', 'date'] },
                jsonPath: { type: 'string' },
                description: { type: 'string' },
              },
            },
          },
        },
      },
      status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  },
  printerColumns: [
    { name: 'Group', type: 'string', jsonPath: '.spec.group' },
    { name: 'Version', type: 'string', jsonPath: '.spec.version' },
    { name: 'Kind', type: 'string', jsonPath: '.spec.names.kind' },
  ],
};

/** How a Model object is named as the owner of the model it serves (SchemeManager). */
export const modelOwner = (name: string) => `Model "${name}"`;

/**
 * Refuses a Model object that could not be served: a name other than
 * `<plural>.<group>`, a group of the platform's, a schema that does not
 * compile, an index path that does not parse, a model a plugin serves
 * (409 naming the plugin); and a change of group or plural on update (the
 * name binds them).
 */
export function modelHooks(schemes: Pick<SchemeManager, 'served'>): StoreHooks {
  return {
    beforeCreate(object) {
      refuseServedByOther(schemes, checkModelObject(object), object);
      return object;
    },
    beforeUpdate(next, current) {
      refuseServedByOther(schemes, checkModelObject(next), next);
      return checkUnchangedGroup(next, current);
    },
  };
}

/** A Model for a group and plural that someone else (a plugin) serves would take it over: 409 naming them. */
function refuseServedByOther(schemes: Pick<SchemeManager, 'served'>, model: Model, object: ApiObject): void {
  const name = object.metadata.name ?? '';
  const served = schemes.served(model.group, model.plural);
  if (!served || served.owner === modelOwner(name)) return;
  throw conflict(
    { group: APIEXTENSIONS_GROUP, resource: 'models', name },
    `model ${model.plural}.${model.group} is served by ${served.owner ?? 'the platform'}: ` +
      'a Model object may not take it over',
  );
}

function checkUnchangedGroup(next: ApiObject, current: ApiObject): ApiObject {
  const a = (current.spec ?? {}) as { group?: string; version?: string };
  const b = (next.spec ?? {}) as { group?: string; version?: string };
  if (a.group !== b.group) {
    throw invalid({ kind: 'Model', name: next.metadata.name }, [
      { field: 'spec.group', reason: 'FieldValueForbidden', message: 'may not change' },
    ]);
  }
  return next;
}

/** The model the object defines; throws a 422 when it could not be served. */
function checkModelObject(object: ApiObject): Model {
  const name = object.metadata.name ?? '';
  let model: Model;
  try {
    model = modelFromObject(object);
  } catch (err) {
    throw invalid({ kind: 'Model', name }, [
      { field: 'spec', reason: 'FieldValueInvalid', message: (err as Error).message },
    ]);
  }
  const causes: StatusCause[] = [];
  if (name !== `${model.plural}.${model.group}`) {
    causes.push({
      field: 'metadata.name',
      reason: 'FieldValueInvalid',
      message: `must be "<plural>.<group>": "${model.plural}.${model.group}"`,
    });
  }
  if (causes.length) throw invalid({ kind: 'Model', name }, causes);
  validateModel(model, { platform: false });
  try {
    checksForModel(model);
  } catch (err) {
    if (!(err instanceof SchemaCompileError)) throw err;
    throw invalid({ kind: 'Model', name }, err.causes('spec.schema'));
  }
  return model;
}
