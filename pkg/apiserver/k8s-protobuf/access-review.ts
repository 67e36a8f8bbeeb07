/**
 * Decodes the protobuf body kubectl sends for `auth can-i`: a SelfSubjectAccessReview
 * (or a SubjectAccessReview) of authorization.k8s.io/v1 in Kubernetes' protobuf envelope.
 */
import { Root } from 'protobufjs';
import { decodeMessage, openEnvelope } from './envelope';

const GROUP_VERSION = 'authorization.k8s.io/v1';
const KINDS = ['SelfSubjectAccessReview', 'SubjectAccessReview'];

/*
 * The messages, numbered as in k8s.io/api authorization/v1/generated.proto (proto2). Fields the decoder does not
 * return (metadata, status, extra, field and label selectors) are left out: protobuf
 * skips unknown fields.
 */
const root = Root.fromJSON({
  nested: {
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

/**
 * Decodes a `application/vnd.kubernetes.protobuf` body holding an authorization.k8s.io/v1
 * SelfSubjectAccessReview or SubjectAccessReview. Fields sent empty (kubectl sends `""` for
 * every unset string) are left out, as Kubernetes' JSON leaves them out. Throws a 400 StatusError naming what is
 * wrong: the magic prefix, a truncated or malformed message, an encoding, or the type.
 */
export function decodeAccessReview(body: Buffer): AccessReview {
  const { apiVersion, kind, raw } = openEnvelope(body, GROUP_VERSION, KINDS);
  const review = decodeMessage(reviewType, raw, kind);
  const spec = (review.spec ?? {}) as AccessReview['spec'];
  if (kind === 'SelfSubjectAccessReview') {
    return { apiVersion, kind, spec: pick(spec, ['resourceAttributes', 'nonResourceAttributes']) };
  }
  return { apiVersion, kind, spec };
}

function pick<T extends object, K extends keyof T>(from: T, keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
}
