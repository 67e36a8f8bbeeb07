import type { ApiObject } from '../../api/object';
import type { RequestAttributes } from '../../auth/attributes';
import type { RbacAuthorizer, RuleCondition } from '../../auth/rbac';
import type { UserInfo } from '../../auth/user';
import type { Model } from '../../registry/model';
import type { BoundCondition } from '../../auth/rbac';
import { describeConditions, objectAccess, usableConditions } from '../object-access';

/** The served models and their stored objects, for reviews that decide conditional rules. */
export interface ConditionalObjects {
  /** The model served for (group, resource), or undefined when none is. */
  model(group: string, resource: string): Model | undefined;
  /** One stored object of a served model; `undefined` when there is none. */
  read(group: string, resource: string, name: string): Promise<{ object: ApiObject; model: Model } | undefined>;
}

/**
 * The caller's conditions on the request that can hold, as a request would be judged: none for a model that is not
 * served, and only those whose every field it indexes (another grants nothing).
 */
export function usableConditionsOf(
  authorizer: RbacAuthorizer,
  objects: ConditionalObjects | undefined,
  user: UserInfo,
  attrs: RequestAttributes,
): BoundCondition[] {
  if (!attrs.isResourceRequest) return [];
  const conditions = authorizer.conditionsFor(user, attrs);
  if (conditions.length === 0 || objects === undefined) return conditions;
  const model = objects.model(attrs.apiGroup, attrs.resource);
  return model ? usableConditions(conditions, model) : [];
}

/** An access review's answer once conditional rules are taken into account. */
export interface ConditionalAnswer {
  allowed: boolean;
  reason: string;
  /** Without a name, when only conditional rules allow: the conditions, `${user.name}` filled in. */
  conditions?: RuleCondition[];
}

/**
 * What conditional rules add to a review that no rule allows outright: with a name, the decision on the stored
 * object (allowed when it matches a condition); without one, allowed for the objects that match, the conditions
 * listed. `undefined` when no conditional rule applies.
 */
export async function conditionalAnswer(
  authorizer: RbacAuthorizer,
  objects: ConditionalObjects | undefined,
  user: UserInfo,
  attrs: RequestAttributes,
): Promise<ConditionalAnswer | undefined> {
  const conditions = usableConditionsOf(authorizer, objects, user, attrs);
  if (conditions.length === 0) return undefined;
  const where = describeConditions(conditions);
  if (attrs.name === '' || attrs.verb === 'create')
    return {
      allowed: true,
      reason: `allowed only for objects where ${where}`,
      conditions: conditions.map((c) => c.where),
    };
  const stored = await objects?.read(attrs.apiGroup, attrs.resource, attrs.name);
  if (stored && objectAccess(conditions, stored.model).allows(stored.object))
    return { allowed: true, reason: `allowed: "${attrs.name}" matches where ${where}` };
  // One answer whether the object is missing or does not match: a review must not tell who may not see it that it exists.
  return { allowed: false, reason: `allowed only for objects where ${where}; "${attrs.name}" is not one of them` };
}
