import type { IncomingMessage } from 'node:http';
import { badRequest, StatusError, tooLarge, unsupportedMediaType } from '../api/errors';
import { assertWithinLimits } from '../util/json-limits';
import { parseYamlDocument } from '../util/yaml-document';
import { isConnectionClosed } from './client-gone';

/** Media types a create or update body may have. */
export const BODY_TYPES = ['application/json', 'application/yaml'];

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
  return Buffer.concat(chunks);
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

/** The media type without parameters, lower-cased: `application/json; charset=utf-8` → `application/json`. */
export const mediaType = (header: string | undefined): string => (header ?? '').split(';')[0].trim().toLowerCase();

/** Whether a media type is YAML (`application/yaml`, `application/x-yaml`, `text/yaml`, `application/apply-patch+yaml`). */
export const isYaml = (type: string): boolean => /(^|[/+.-])yaml$/.test(type);

/**
 * Decodes a body as JSON or YAML. An absent Content-Type is read as JSON (as
 * curl sends none by default); anything else is 415. Malformed input is 400
 * with the parser's message; an empty body is 400; so is one nested deeper
 * than `MAX_NESTING_DEPTH` (every handler after this may walk it recursively).
 */
export function decodeBody(raw: Buffer, contentType: string | undefined, accepted = BODY_TYPES): unknown {
  const type = bodyMediaType(contentType, accepted);
  const text = raw.toString('utf8');
  if (text.trim() === '') throw badRequest('the request body is empty');
  if (isYaml(type)) return parseYamlDocument(text, 'the request body');
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
function bodyMediaType(contentType: string | undefined, accepted: string[]): string {
  const type = mediaType(contentType);
  if (type === '' && (contentType ?? '').trim() !== '') throw unsupportedMediaType(contentType ?? '', accepted);
  if (type === '' || accepted.includes(type) || (isYaml(type) && accepted.some(isYaml))) return type;
  throw unsupportedMediaType(type, accepted);
}
