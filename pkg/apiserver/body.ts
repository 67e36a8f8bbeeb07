import type { IncomingMessage } from 'node:http';
import { badRequest, StatusError, tooLarge, unsupportedMediaType } from '../api/errors';
import { assertJsonFieldCount, assertWithinLimits, MAX_BODY_FIELDS } from '../util/json-limits';
import { parseYamlDocument } from '../util/yaml-document';
import { isConnectionClosed } from './client-gone';

/** Media types a create or update body may have. */
export const BODY_TYPES: readonly string[] = ['application/json', 'application/yaml'];

/**
 * Reads the whole body, refusing more than `limit` bytes with 413 — from the
 * `Content-Length` header before reading, or as soon as the stream passes it —
 * and a body in a `Content-Encoding` other than `identity` with 415 (as
 * RFC 9110 says; read as it is, a gzip body would be a 400 about bad JSON).
 * A connection closed before the body is whole (the client left, or the server's
 * request timeout answered it) is a 400 that nobody reads, not a server error.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  refuseEncoded(req);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        req.resume();
        throw tooLarge(limit);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    if (isConnectionClosed(err) || (req.destroyed && !(err instanceof StatusError)))
      throw badRequest('the connection closed before the whole body arrived');
    throw err;
  }
  if (size > 0) refuseUntypedFromBrowser(req);
  return Buffer.concat(chunks);
}

/**
 * 415 for a body without a `Content-Type` that a browser sent. A page of any other site can make a browser POST a
 * typeless body (`fetch` of bytes, `sendBeacon`) with the credentials it keeps for this server; it cannot make it send
 * a JSON or YAML type without asking the server first (CORS). Browsers mark every such request with `Origin` or
 * `Sec-Fetch-Site`; other clients (curl's `-T`, scripts) send neither, and their typeless body is read as JSON.
 */
function refuseUntypedFromBrowser(req: IncomingMessage): void {
  if (req.headers['content-type'] !== undefined) return;
  if (req.headers.origin === undefined && req.headers['sec-fetch-site'] === undefined) return;
  throw new StatusError(
    415,
    'UnsupportedMediaType',
    'a request body sent by a browser must name its media type (Content-Type: application/json or application/yaml)',
  );
}

/** 415 for a body in a content encoding other than `identity` (drained, so that the connection stays usable). */
function refuseEncoded(req: IncomingMessage): void {
  const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return;
  req.resume();
  throw new StatusError(
    415,
    'UnsupportedMediaType',
    `the content encoding "${encoding}" is not supported; send the body uncompressed (identity)`,
  );
}

/**
 * 415 unless a request that carries a body names one of `accepted` as its type (any YAML type where one is
 * accepted), or names none and no browser sent it (see `refuseUntypedFromBrowser`). For handlers that pass the body
 * on unread, such as plugin routes; a request without a body passes.
 */
export function assertBodyType(req: IncomingMessage, accepted: readonly string[]): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0;
  if (!hasBody) return;
  refuseUntypedFromBrowser(req);
  bodyMediaType(req.headers['content-type'], accepted);
}

/** The media type without parameters, lower-cased: `application/json; charset=utf-8` → `application/json`. */
export const mediaType = (header: string | undefined): string => (header ?? '').split(';')[0].trim().toLowerCase();

/** Whether a media type is YAML (`application/yaml`, `application/x-yaml`, `text/yaml`, `application/apply-patch+yaml`). */
export const isYaml = (type: string): boolean => /(^|[/+.-])yaml$/.test(type);

/**
 * Decodes a body as JSON or YAML. An absent Content-Type is read as JSON (as
 * `curl -T` sends none; `readBody` has refused one a browser sent); anything else is 415: `text/plain`, forms
 * (`application/x-www-form-urlencoded`, `multipart/form-data`), the types a page of another site can make a browser
 * send. Malformed input is 400
 * with the parser's message; an empty body is 400; so is one nested deeper
 * than `MAX_NESTING_DEPTH` (every handler after this may walk it recursively).
 * One holding more than `MAX_BODY_FIELDS` fields is 413, before any handler spends work on them.
 */
export function decodeBody(
  raw: Buffer,
  contentType: string | undefined,
  accepted: readonly string[] = BODY_TYPES,
): unknown {
  const type = bodyMediaType(contentType, accepted);
  const text = raw.toString('utf8');
  if (text.trim() === '') throw badRequest('the request body is empty');
  if (isYaml(type)) return parseYamlDocument(text, 'the request body', MAX_BODY_FIELDS);
  assertJsonFieldCount(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw badRequest(`the request body is not valid JSON: ${(err as Error).message}`);
  }
  assertWithinLimits(value);
  return value;
}

/**
 * The body's media type when it is one of `accepted` (or YAML where YAML is), '' when the header is absent;
 * else 415, also for a header that names no media type at all (`;;;==/`), which is not an absent one.
 */
function bodyMediaType(contentType: string | undefined, accepted: readonly string[]): string {
  const type = mediaType(contentType);
  if (type === '' && (contentType ?? '').trim() !== '') throw unsupportedMediaType(contentType ?? '', accepted);
  if (type === '' || accepted.includes(type) || (isYaml(type) && accepted.some(isYaml))) return type;
  throw unsupportedMediaType(type, accepted);
}
