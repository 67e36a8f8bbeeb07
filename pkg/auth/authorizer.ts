import type { RequestAttributes } from './attributes';
import type { UserInfo } from './user';

/**
 * An authoriser's answer. Deny is listed first: the zero value denies
 * (Kubernetes' rule). NoOpinion lets the next authoriser decide.
 */
export type Decision = 'Deny' | 'Allow' | 'NoOpinion';

/** What is asked: who, and the parsed request (verb, group, resource, name, or a non-resource path). */
export interface Attributes {
  user: UserInfo;
  info: RequestAttributes;
}

/** Decides a request, with a one-line reason for logs and access reviews. */
export interface Authorizer {
  authorize(attributes: Attributes): Promise<{ decision: Decision; reason: string }>;
}

/** `--authorization-mode=AlwaysAllow`: every request is allowed. */
export const alwaysAllow: Authorizer = {
  authorize: async () => ({ decision: 'Allow', reason: 'AlwaysAllow authorization mode' }),
};
