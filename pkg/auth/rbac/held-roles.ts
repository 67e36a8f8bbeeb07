import type { UserInfo } from '../user';
import { RuleSet } from './rule-set';
import { observedDefinitionOf, uiPermissionsOf, type Role } from './types';

/** A role as the authoriser enforces it: its rules compiled. */
export interface EnforcedRole {
  name: string;
  role: Role;
  ruleSet: RuleSet;
  /** 'status' when the status was computed for the role as it is (generation and dependencies), else 'own' (own rules only) */
  source: 'status' | 'own';
}

/** Where the authoriser finds bindings and roles (the lead's watch-fed cache). */
export interface RbacSource {
  bindingsOf(userName: string): readonly { binding: string; role: string }[];
  role(name: string): EnforcedRole | undefined;
}

/**
 * Compiles a role for enforcement: its effective rules (`status.rules`) when
 * the status was computed for the current generation and dependencies, else its own rules
 * only (the aggregation controller has not caught up: never grant more than
 * the role says, e.g. after a dependency was removed).
 */
export function enforcedRole(role: Role): EnforcedRole {
  const current =
    role.status !== undefined &&
    role.status.observedGeneration !== undefined &&
    role.status.observedGeneration === role.metadata.generation &&
    role.status.observedDefinition === observedDefinitionOf(role);
  return {
    name: role.metadata.name!,
    role,
    ruleSet: new RuleSet(current ? role.status!.rules : (role.rules ?? [])),
    source: current ? 'status' : 'own',
  };
}

/** The UI permissions a role grants as enforced: its status's when current, else its own annotation's. */
export function enforcedUiPermissions(enforced: EnforcedRole): readonly string[] {
  return enforced.source === 'status' ? (enforced.role.status?.uiPermissions ?? []) : uiPermissionsOf(enforced.role);
}

/** One role a user holds, and how. */
export interface HeldRole {
  name: string;
  /** The binding that grants it; absent for the roles of `user.groups`. */
  binding?: string;
  /** `undefined` when the role does not exist. */
  enforced: EnforcedRole | undefined;
  /** Bound, but left out by the token's role limit: it does not count. */
  limited: boolean;
}

/** Whether a binding's role counts under the user's role limit. */
export function withinRoleLimit(user: UserInfo, role: string): boolean {
  return user.roleLimit === undefined || user.roleLimit.includes(role);
}

/** Every role a user holds (bindings first, then groups), for explanations and checks off the hot path. */
export function heldRoles(source: RbacSource, user: UserInfo): HeldRole[] {
  const held: HeldRole[] = source.bindingsOf(user.name).map(({ binding, role }) => ({
    name: role,
    binding,
    enforced: source.role(role),
    limited: !withinRoleLimit(user, role),
  }));
  for (const group of user.groups) held.push({ name: group, enforced: source.role(group), limited: false });
  return held;
}
