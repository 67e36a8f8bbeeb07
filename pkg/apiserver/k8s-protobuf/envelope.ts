/**
 * Kubernetes' protobuf envelope (`application/vnd.kubernetes.protobuf`): the magic `k8s\0`, then a
 * runtime.Unknown holding the type and the raw message.
 */
import { Root, type Type } from 'protobufjs';
import { badRequest } from '../../api/errors';

/** The four bytes that open every Kubernetes protobuf body: `k8s\0`. */
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** As numbered in k8s.io/apimachinery runtime/generated.proto (proto2). */
const unknownType = Root.fromJSON({
  nested: {
    TypeMeta: { fields: { apiVersion: { id: 1, type: 'string' }, kind: { id: 2, type: 'string' } } },
    Unknown: {
      fields: {
        typeMeta: { id: 1, type: 'TypeMeta' },
        raw: { id: 2, type: 'bytes' },
        contentEncoding: { id: 3, type: 'string' },
        contentType: { id: 4, type: 'string' },
      },
    },
  },
}).lookupType('Unknown');

/** An envelope's type and its raw message, still encoded. */
export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
}

/** Decodes one message; 400 naming `what` when the bytes are not one. */
export function decodeMessage(type: Type, bytes: Uint8Array, what: string): Record<string, unknown> {
  try {
    return type.toObject(type.decode(bytes), { defaults: false, arrays: false }) as Record<string, unknown>;
  } catch (err) {
    throw badRequest(`the protobuf body is not a valid ${what}: ${(err as Error).message}`);
  }
}

/**
 * Opens the envelope of a body that must hold one of `kinds` of `groupVersion`. Throws a 400 StatusError
 * naming what is wrong: the magic prefix, a truncated or malformed envelope, an encoding, or the type.
 */
export function openEnvelope(body: Buffer, groupVersion: string, kinds: readonly string[]): Envelope {
  if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw badRequest('the protobuf body does not start with the Kubernetes magic prefix "k8s\\0"');
  }
  const envelope = decodeMessage(unknownType, body.subarray(MAGIC.length), 'runtime.Unknown envelope');
  const { apiVersion = '', kind = '' } = (envelope.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  if (apiVersion !== groupVersion || !kinds.includes(kind)) throw wrongType(apiVersion, kind, groupVersion, kinds);
  checkRawEncoding(envelope);
  return { apiVersion, kind, raw: (envelope.raw as Uint8Array | undefined) ?? new Uint8Array() };
}

const wrongType = (apiVersion: string, kind: string, groupVersion: string, kinds: readonly string[]) =>
  badRequest(
    `the protobuf body holds ${apiVersion || '(no apiVersion)'}, kind ${kind || '(no kind)'}; ` +
      `expected ${groupVersion} ${kinds.join(' or ')}`,
  );

/** The raw message must be plain protobuf: no content encoding, no other content type. */
function checkRawEncoding(envelope: Record<string, unknown>): void {
  if (envelope.contentEncoding) {
    throw badRequest(`the protobuf body's content encoding "${String(envelope.contentEncoding)}" is not supported`);
  }
  if (envelope.contentType && envelope.contentType !== 'application/vnd.kubernetes.protobuf') {
    throw badRequest(`the protobuf body's raw content type "${String(envelope.contentType)}" is not supported`);
  }
}
