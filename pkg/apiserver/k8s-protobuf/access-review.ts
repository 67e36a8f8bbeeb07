/**
 * Decodes the protobuf body kubectl sends for `auth can-i`: a SelfSubjectAccessReview
 * (or a SubjectAccessReview) of authorization.k8s.io/v1 in Kubernetes' protobuf envelope.
 */
import { Root, type Type } from 'protobufjs';
import { badRequest } from '../../api/errors';

/** The four bytes that open every Kubernetes protobuf body: `k8s\0`. */
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

const GROUP_VERSION = 'authorization.k8s.io/v1';
const KINDS = ['SelfSubjectAccessReview', 'SubjectAccessReview'];

/*
 * The messages, numbered as in k8s.io/apimachinery runtime/generated.proto and
 * k8s.io/api authorization/v1/generated.proto (proto2). Fields the decoder does not
 * return (metadata, status, extra, field and label selectors) are left out: protobuf
 * skips unknown fields.
 */
const root = Root.fromJSON({
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
    ResourceAttributes: {
      fields: {
        namespace: { id: 1, type: 'string' },
        verb: { id: 2, type: 'string' },
        group: { id: 3, type: 'string' },
        version: { id: 4, type: 'string' },
        resource: { id: 5, type: 'string' },
        subresource: { id: 6, type: 'string' },
        name: { id: 7, type: 'string' },
      },
    },
    NonResourceAttributes: { fields: { path: { id: 1, type: 'string' }, verb: { id: 2, type: 'string' } } },
    SubjectAccessReviewSpec: {
      fields: {
        resourceAttributes: { id: 1, type: 'ResourceAttributes' },
        nonResourceAttributes: { id: 2, type: 'NonResourceAttributes' },
        user: { id: 3, type: 'string' },
        groups: { id: 4, type: 'string', rule: 'repeated' },
        uid: { id: 6, type: 'string' },
      },
    },
    SubjectAccessReview: { fields: { spec: { id: 2, type: 'SubjectAccessReviewSpec' } } },
  },
});

const unknownType = root.lookupType('Unknown');
// A SelfSubjectAccessReviewSpec is the SubjectAccessReviewSpec's first two fields.
const reviewType = root.lookupType('SubjectAccessReview');

/** `spec.resourceAttributes` of an access review, e.g. `{verb: 'get', group: 'example.com', resource: 'persons'}`. */
export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

/** `spec.nonResourceAttributes` of an access review, e.g. `{path: '/healthz', verb: 'get'}`. */
export interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

/** A decoded (Self)SubjectAccessReview: its type and the fields of its spec that were sent. */
export interface AccessReview {
  apiVersion: string;
  kind: string;
  spec: {
    resourceAttributes?: ResourceAttributes;
    nonResourceAttributes?: NonResourceAttributes;
    user?: string;
    groups?: string[];
    uid?: string;
  };
}

function decodeMessage(type: Type, bytes: Uint8Array, what: string): Record<string, unknown> {
  try {
    return type.toObject(type.decode(bytes), { defaults: false, arrays: false }) as Record<string, unknown>;
  } catch (err) {
    throw badRequest(`the protobuf body is not a valid ${what}: ${(err as Error).message}`);
  }
}

/**
 * Decodes a `application/vnd.kubernetes.protobuf` body holding an authorization.k8s.io/v1
 * SelfSubjectAccessReview or SubjectAccessReview. Fields sent empty (kubectl sends `""` for
 * every unset string) are left out, as Kubernetes' JSON leaves them out. Throws a 400 StatusError naming what is
 * wrong: the magic prefix, a truncated or malformed message, an encoding, or the type.
 */
export function decodeAccessReview(body: Buffer): AccessReview {
  if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw badRequest('the protobuf body does not start with the Kubernetes magic prefix "k8s\\0"');
  }
  const envelope = decodeMessage(unknownType, body.subarray(MAGIC.length), 'runtime.Unknown envelope');
  const { apiVersion, kind } = reviewTypeMeta(envelope);
  checkEncoding(envelope);
  const raw = (envelope.raw as Uint8Array | undefined) ?? new Uint8Array();
  const review = decodeMessage(reviewType, raw, kind);
  const spec = (review.spec ?? {}) as AccessReview['spec'];
  if (kind === 'SelfSubjectAccessReview') {
    return { apiVersion, kind, spec: pick(spec, ['resourceAttributes', 'nonResourceAttributes']) };
  }
  return { apiVersion, kind, spec };
}

/** The envelope's apiVersion and kind, which must be one of the access reviews. */
function reviewTypeMeta(envelope: Record<string, unknown>): { apiVersion: string; kind: string } {
  const typeMeta = (envelope.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  const apiVersion = typeMeta.apiVersion ?? '';
  const kind = typeMeta.kind ?? '';
  if (apiVersion !== GROUP_VERSION || !KINDS.includes(kind)) {
    throw badRequest(
      `the protobuf body holds ${apiVersion || '(no apiVersion)'}, kind ${kind || '(no kind)'}; ` +
        `expected ${GROUP_VERSION} ${KINDS.join(' or ')}`,
    );
  }
  return { apiVersion, kind };
}

/** Refuses an envelope whose raw content is encoded or is not protobuf. */
function checkEncoding(envelope: Record<string, unknown>): void {
  if (envelope.contentEncoding) {
    throw badRequest(`the protobuf body's content encoding "${String(envelope.contentEncoding)}" is not supported`);
  }
  if (envelope.contentType && envelope.contentType !== 'application/vnd.kubernetes.protobuf') {
    throw badRequest(`the protobuf body's raw content type "${String(envelope.contentType)}" is not supported`);
  }
}

function pick<T extends object, K extends keyof T>(from: T, keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
}
