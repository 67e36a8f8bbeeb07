import { SERVER_OWNED_METADATA, type ApiObject, type ObjectMeta } from '../api/object';
import { badRequest, invalid, type StatusCause } from '../api/errors';
import type { Preconditions } from '../storage/interface';
import { apiVersionOf, type Model } from './model';
import { isPlainObject } from '../api/plain-object';

/**
 * Checks on a request body before anything else reads it: that it is an
 * object of this model, with server-owned metadata dropped (docs/api.md: a
 * client's values for them are ignored).
 */
export function objectFromBody(model: Model, body: unknown): ApiObject {
  if (!isPlainObject(body)) {
    throw badRequest(`the request body must be a JSON or YAML object (a ${model.kind}), not ${describe(body)}`);
  }
  const input = body;
  const apiVersion = apiVersionOf(model);
  checkTypeMeta(model, input, apiVersion);
  const metadata = input.metadata ?? {};
  if (!isPlainObject(metadata)) {
    throw invalid({ kind: model.kind }, [
      { field: 'metadata', reason: 'FieldValueTypeInvalid', message: 'must be an object' },
    ]);
  }
  return { ...input, apiVersion, kind: model.kind, metadata: withoutNullFields(metadata as ObjectMeta) };
}

/**
 * A copy of the metadata without fields sent as `null` (`"labels": null`): Kubernetes decodes them as
 * absent, so they are neither stored nor answered as null.
 */
function withoutNullFields(meta: ObjectMeta): ObjectMeta {
  const out: Record<string, unknown> = { ...meta };
  for (const [field, value] of Object.entries(out)) if (value === null) delete out[field];
  return out as ObjectMeta;
}

/** Absent apiVersion/kind are filled in, as the path says what they are; a different one is an error. */
function checkTypeMeta(model: Model, input: Record<string, unknown>, apiVersion: string): void {
  if (input.apiVersion !== undefined && input.apiVersion !== apiVersion) {
    throw badRequest(`the body's apiVersion "${String(input.apiVersion)}" does not match the path's "${apiVersion}"`);
  }
  if (input.kind !== undefined && input.kind !== model.kind) {
    throw badRequest(`the body's kind "${String(input.kind)}" does not match the path's "${model.kind}"`);
  }
}

/**
 * A copy of the metadata without the fields only the server sets, and
 * without `namespace`: every object is cluster-scoped, and Kubernetes clears
 * a namespace sent for a cluster-scoped object rather than refusing it.
 */
export function withoutServerFields(meta: ObjectMeta): ObjectMeta {
  const out: Record<string, unknown> = { ...meta };
  for (const field of SERVER_OWNED_METADATA) delete out[field];
  delete out.namespace;
  return out as ObjectMeta;
}

/**
 * The optimistic-lock tokens a body carries (`metadata.version`,
 * `metadata.resourceVersion`), validated. `required` makes their absence a
 * 422, as for PUT (docs/api.md).
 */
export function preconditionsFromBody(model: Model, object: ApiObject, required: boolean): Preconditions | undefined {
  const { version, resourceVersion, name } = object.metadata;
  const causes = preconditionCauses(version, resourceVersion, required);
  if (causes.length) throw invalid({ kind: model.kind, name }, causes);
  if (version === undefined && resourceVersion === undefined) return undefined;
  const pre: Preconditions = {};
  if (version !== undefined) pre.version = version;
  if (resourceVersion !== undefined) pre.resourceVersion = resourceVersion;
  return pre;
}

/** What is wrong with a body's lock tokens: each malformed one, else their absence when `required`. */
function preconditionCauses(version: unknown, resourceVersion: unknown, required: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  if (version !== undefined && !isPositiveInteger(version)) {
    causes.push({ field: 'metadata.version', reason: 'FieldValueInvalid', message: 'must be a positive integer' });
  }
  if (resourceVersion !== undefined && (typeof resourceVersion !== 'string' || resourceVersion === '')) {
    causes.push({
      field: 'metadata.resourceVersion',
      reason: 'FieldValueInvalid',
      message: 'must be a non-empty string',
    });
  }
  if (causes.length === 0 && required && version === undefined && resourceVersion === undefined) {
    causes.push({
      field: 'metadata.resourceVersion',
      reason: 'FieldValueRequired',
      message: 'an update must carry metadata.version or metadata.resourceVersion',
    });
  }
  return causes;
}

const isPositiveInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
