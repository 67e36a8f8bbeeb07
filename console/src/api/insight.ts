import type { Rule } from '../roles/roles';
import { api } from './client';
import { ACCESS_REVIEWS, IMPACT, WHAT_CAN, WHO_CAN } from './paths';

/** A condition a rule carries (`where`): selectors the object must match, `${user.name}` the caller's name. */
export interface Condition {
  fieldSelector?: string;
  labelSelector?: string;
}

/** How a user holds a grant: the binding, the role held, and the roles from it to the one whose rule it is. */
export interface Via {
  binding?: string;
  role: string;
  path: string[];
  rule?: Rule;
}

/** What a request is, for the reviews: a resource request (`name` optional) on one group. */
export interface ResourceRequest {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  name?: string;
}

export interface WhoCanAnswer {
  anonymous: boolean;
  authenticated: boolean;
  users: { name: string; via: Via[]; conditions?: Condition[] }[];
  total: number;
  continue?: string;
}

/** Who can do `request`: one page of users (by name), and the flags for grants to everyone. */
export async function whoCan(request: ResourceRequest, limit: number, next?: string): Promise<WhoCanAnswer> {
  const spec = { ...request, limit, ...(next ? { continue: next } : {}) };
  return (await api<{ status: WhoCanAnswer }>('POST', WHO_CAN, { body: { spec } })).status;
}

export type RuleWithVia = Rule & { via: Via[] };

export interface WhatCanAnswer {
  resourceRules: RuleWithVia[];
  nonResourceRules: RuleWithVia[];
  uiPermissions: string[];
}

/** Every rule and UI permission a user holds, each with where it comes from; without `user`, the caller's own. */
export async function whatCan(user?: string): Promise<WhatCanAnswer> {
  return (await api<{ status: WhatCanAnswer }>('POST', WHAT_CAN, { body: { spec: { user } } })).status;
}

export interface AccessChange {
  user: string;
  gained: Rule[];
  lost: Rule[];
  uiPermissionsGained: string[];
  uiPermissionsLost: string[];
}

export interface ImpactAnswer {
  usersAffected: number;
  changes: AccessChange[];
  anonymousGained: Rule[];
  anonymousLost: Rule[];
  authenticatedGained?: Rule[];
  authenticatedLost?: Rule[];
  continue?: string;
}

/** A proposed change: a role or binding as it would be written (or deleted), or a user's new set of roles. */
export type ProposedChange =
  | { operation: 'create' | 'update' | 'delete'; object: unknown }
  | { operation: 'update'; userPermissions: { user: string; roles: string[] } };

/** What a change would do to everyone's access, before it is made (the first `limit` users who change). */
export async function impactOf(change: ProposedChange, limit = 50): Promise<ImpactAnswer> {
  return (await api<{ status: ImpactAnswer }>('POST', IMPACT, { body: { spec: { ...change, limit } } })).status;
}

/** One step of an access review's explanation: a role considered, or a rule and the part of it that failed. */
export interface TraceStep {
  kind: string;
  name: string;
  message: string;
}

export interface SelfReview {
  allowed: boolean;
  reason: string;
  trace?: TraceStep[];
  conditions?: Condition[];
}

/** May the caller do `request`, and why (not)? Every logged-in user may ask about themself. */
export async function reviewSelf(request: ResourceRequest): Promise<SelfReview> {
  return (await api<{ status: SelfReview }>('POST', ACCESS_REVIEWS, { body: { spec: request } })).status;
}
