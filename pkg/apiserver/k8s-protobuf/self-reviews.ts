/**
 * Decodes the protobuf bodies kubectl sends for `auth whoami` (an authentication.k8s.io/v1
 * SelfSubjectReview) and `auth can-i --list` (an authorization.k8s.io/v1 SelfSubjectRulesReview).
 */
import { Root } from 'protobufjs';
import { decodeMessage, openEnvelope } from './envelope';

/* Numbered as in k8s.io/api authorization/v1/generated.proto (proto2); metadata and status are skipped. */
const rulesReviewType = Root.fromJSON({
  nested: {
    SelfSubjectRulesReviewSpec: { fields: { namespace: { id: 1, type: 'string' } } },
    SelfSubjectRulesReview: { fields: { spec: { id: 2, type: 'SelfSubjectRulesReviewSpec' } } },
  },
}).lookupType('SelfSubjectRulesReview');

/** A SelfSubjectRulesReview's spec: the namespace kubectl sends (`default`), absent when empty. */
export interface RulesReviewSpec {
  namespace?: string;
}

/** The spec of a SelfSubjectRulesReview body; 400 naming the fault for anything else. */
export function decodeSelfSubjectRulesReview(body: Buffer): { spec: RulesReviewSpec } {
  const { kind, raw } = openEnvelope(body, 'authorization.k8s.io/v1', ['SelfSubjectRulesReview']);
  const review = decodeMessage(rulesReviewType, raw, kind);
  const spec = (review.spec ?? {}) as RulesReviewSpec;
  return { spec: spec.namespace ? { namespace: spec.namespace } : {} };
}

/**
 * Checks that a body holds a SelfSubjectReview, which asks nothing (it has no spec): the answer is
 * about the caller. 400 naming the fault for anything else.
 */
export function checkSelfSubjectReview(body: Buffer): void {
  openEnvelope(body, 'authentication.k8s.io/v1', ['SelfSubjectReview']);
}
