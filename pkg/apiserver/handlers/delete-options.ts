import { badRequest } from '../../api/errors';
import type { Preconditions } from '../../storage/interface';
import type { RequestOptions } from '../../registry/resource-store';
import type { RequestContext } from '../context';
import { decodeBody, readBody } from '../body';
import { checkPropagationPolicy, writeOptions } from './options';
import type { HandlerSettings } from './deps';
import { isPlainObject } from '../../api/plain-object';

/** What a DELETE asks for, from its query and its optional Kubernetes `DeleteOptions` body. */
export interface DeleteRequest {
  /** `DeleteOptions.preconditions`, when given. */
  preconditions?: Preconditions;
  /** `?dryRun=All` or `DeleteOptions.dryRun: ["All"]` (kubectl sends the body form), `fieldValidation`, the caller. */
  options: RequestOptions;
}

/**
 * Reads a DELETE's options: the query's (`dryRun`, `propagationPolicy`) and
 * those of an optional DeleteOptions body (`preconditions`, `dryRun`,
 * `propagationPolicy`; `gracePeriodSeconds` and `orphanDependents` are
 * accepted and have no effect). A dry run asked for in either place writes
 * nothing; a malformed option is 400 before anything is deleted.
 */
export async function readDeleteRequest(ctx: RequestContext, settings: HandlerSettings): Promise<DeleteRequest> {
  checkPropagationPolicy(ctx.url.searchParams.get('propagationPolicy') ?? undefined, 'propagationPolicy');
  const options = writeOptions(ctx.url.searchParams, ctx.user, ctx.access);
  const body = await deleteOptionsBody(ctx, settings);
  if (body === undefined) return { options };
  checkTypeMeta(body);
  checkPropagationPolicy(body.propagationPolicy, 'DeleteOptions.propagationPolicy');
  if (dryRunOf(body.dryRun)) options.dryRun = true;
  const preconditions = preconditionsOf(body.preconditions);
  return preconditions ? { preconditions, options } : { options };
}

/** The DeleteOptions body as an object, or undefined when the request has none (empty or blank). */
async function deleteOptionsBody(
  ctx: RequestContext,
  settings: HandlerSettings,
): Promise<Record<string, unknown> | undefined> {
  const raw = await readBody(ctx.req, settings.maxBodyBytes);
  if (raw.length === 0 || raw.toString('utf8').trim() === '') return undefined;
  const body = decodeBody(raw, ctx.req.headers['content-type']);
  if (!isPlainObject(body)) throw badRequest('DeleteOptions must be an object');
  return body;
}

/** The API versions a DeleteOptions body may name (Kubernetes accepts each); `kind` may be absent. */
const DELETE_OPTIONS_VERSIONS = ['v1', 'meta.k8s.io/v1'];

/** A body that says it is something else than DeleteOptions (a Person sent to DELETE, say) is 400, deleting nothing. */
function checkTypeMeta(body: Record<string, unknown>): void {
  if (body.kind !== undefined && body.kind !== 'DeleteOptions') {
    throw badRequest(`the DELETE body must be a DeleteOptions, not a ${JSON.stringify(body.kind)}`);
  }
  if (body.apiVersion !== undefined && !DELETE_OPTIONS_VERSIONS.includes(body.apiVersion as string)) {
    throw badRequest(
      `unsupported DeleteOptions apiVersion ${JSON.stringify(body.apiVersion)}: use ${DELETE_OPTIONS_VERSIONS.join(' or ')}`,
    );
  }
}

/** `DeleteOptions.dryRun`: absent, or a list whose every entry is "All" (Kubernetes' only value). */
function dryRunOf(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (!Array.isArray(value)) throw badRequest('DeleteOptions.dryRun must be a list, e.g. ["All"]');
  for (const entry of value) {
    if (entry !== 'All') {
      throw badRequest(`invalid DeleteOptions.dryRun ${JSON.stringify(entry)}: the only supported value is "All"`);
    }
  }
  return value.length > 0;
}

/** `DeleteOptions.preconditions`: undefined when absent or empty. */
function preconditionsOf(pre: unknown): Preconditions | undefined {
  if (pre === undefined || pre === null) return undefined;
  if (!isPlainObject(pre)) throw badRequest('DeleteOptions.preconditions must be an object');
  const out: Preconditions = {};
  const resourceVersion = optionalString(pre.resourceVersion, 'preconditions.resourceVersion');
  if (resourceVersion !== undefined) out.resourceVersion = resourceVersion;
  const uid = optionalString(pre.uid, 'preconditions.uid');
  if (uid !== undefined) out.uid = uid;
  return Object.keys(out).length ? out : undefined;
}

/** A string member that may be absent (undefined or null); anything else is a 400 naming `field`. */
function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  return value;
}
