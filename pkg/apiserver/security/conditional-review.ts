import type { ApiObject } from '../../api/object';
import type { RequestAttributes } from '../../auth/attributes';
import type { RbacAuthorizer, RuleCondition } from '../../auth/rbac';
import type { UserInfo } from '../../auth/user';
import type { Model } from '../../registry/model';
import { describeConditions, objectAccess } from '../object-access';

/** Reads one stored object of a served model, for reviews that decide on it; `undefined` when there is none. */
export type ObjectReader = (
  group: string,
  resource: string,
  name: string,
) => Promise<{ object: ApiObject; model: Model } | undefined>;

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
  readObject: ObjectReader | undefined,
  user: UserInfo,
  attrs: RequestAttributes,
): Promise<ConditionalAnswer | undefined> {
  if (!attrs.isResourceRequest) return undefined;
  const conditions = authorizer.conditionsFor(user, attrs);
  if (conditions.length === 0) return undefined;
  const where = describeConditions(conditions);
  if (attrs.name === '' || attrs.verb === 'create')
    return {
      allowed: true,
      reason: `allowed only for objects where ${where}`,
      conditions: conditions.map((c) => c.where),
    };
  const stored = await readObject?.(attrs.apiGroup, attrs.resource, attrs.name);
  if (stored && objectAccess(conditions, stored.model).allows(stored.object))
    return { allowed: true, reason: `allowed: "${attrs.name}" matches where ${where}` };
  // One answer whether the object is missing or does not match: a review must not tell who may not see it that it exists.
  return { allowed: false, reason: `allowed only for objects where ${where}; "${attrs.name}" is not one of them` };
}
