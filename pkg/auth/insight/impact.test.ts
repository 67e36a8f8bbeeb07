import type { RequestAttributes } from '../attributes';
import { RbacAuthorizer, ruleAllows, type PolicyRule } from '../rbac';
import { ANONYMOUS, LOGGED_IN_GROUPS } from '../user';
import {
  everyRequest,
  randomRole,
  randomWorld,
  roleNames,
  USERS,
  type Picker,
  type TestWorld,
} from '../../../test/support/rbac-insight-world';
import { accessImpact, type AccessImpact, type ProposedChange } from './impact';

const requests = everyRequest();

/** A random change of a role, a binding, a user or a user's roles. */
function randomChange(p: Picker): ProposedChange {
  const names = roleNames(8);
  const r = p.rnd();
  if (r < 0.3) {
    const name = p.pick(names);
    return { kind: 'role', name, role: p.rnd() < 0.15 ? undefined : randomRole(p, name, names) };
  }
  if (r < 0.45) {
    // Several roles at once, as a plugin's role templates are applied or removed.
    const roles = p.some(names, 3).map((name) => ({
      name,
      role: p.rnd() < 0.3 ? undefined : randomRole(p, name, names),
    }));
    return { kind: 'roles', roles };
  }
  if (r < 0.7) {
    const name = p.rnd() < 0.7 ? `binding-${Math.floor(p.rnd() * 14)}` : 'binding-new';
    return {
      kind: 'binding',
      name,
      binding: p.rnd() < 0.2 ? undefined : { role: p.pick(names), subjects: p.some(USERS, 3) },
    };
  }
  if (r < 0.85) return { kind: 'user', name: p.pick(USERS), exists: p.rnd() < 0.8, disabled: p.rnd() < 0.4 };
  return { kind: 'assignment', user: p.pick(USERS), roles: p.some(names, 3) };
}

/** `world` with the change made and every role's status materialised again. */
function applied(world: TestWorld, change: ProposedChange): TestWorld {
  const next = world.clone();
  if (change.kind === 'role') setOrRemove(next.graph, change.name, change.role);
  else if (change.kind === 'roles') for (const w of change.roles) setOrRemove(next.graph, w.name, w.role);
  else if (change.kind === 'binding') setOrRemove(next.bindings, change.name, change.binding);
  else if (change.kind === 'user') applyUser(next, change);
  else applyAssignment(next, change);
  next.materialise();
  return next;
}

function setOrRemove<T>(
  target: { set(...args: never[]): unknown; remove?(name: string): void; delete?(name: string): unknown },
  name: string,
  value: T | undefined,
): void {
  if (value === undefined) (target.remove ?? target.delete)!.call(target, name);
  else if (target.remove) (target.set as (v: T) => void).call(target, value);
  else (target.set as (k: string, v: T) => void).call(target, name, value);
}

function applyUser(world: TestWorld, change: Extract<ProposedChange, { kind: 'user' }>): void {
  if (change.exists) world.users.add(change.name);
  else world.users.delete(change.name);
  if (change.disabled || !change.exists) world.disabled.add(change.name);
  else world.disabled.delete(change.name);
}

function applyAssignment(world: TestWorld, change: Extract<ProposedChange, { kind: 'assignment' }>): void {
  for (const [name, b] of [...world.bindings]) {
    if (!b.subjects.includes(change.user)) continue;
    const others = b.subjects.filter((s) => s !== change.user);
    if (others.length) world.bindings.set(name, { ...b, subjects: others });
    else world.bindings.delete(name);
  }
  for (const role of change.roles) world.bindings.set(`assigned-${role}`, { role, subjects: [change.user] });
}

/** Whether the user can act at all: exists (when the change is about them) and is not disabled. */
function canAct(world: TestWorld, user: string, change: ProposedChange): boolean {
  if (world.isDisabled(user)) return false;
  return change.kind !== 'user' || change.name !== user || world.userExists(user);
}

const allowedBy = (rules: PolicyRule[], attrs: RequestAttributes) => rules.some((rule) => ruleAllows(rule, attrs));

interface Case {
  world: TestWorld;
  next: TestWorld;
  change: ProposedChange;
  impact: AccessImpact;
  before: RbacAuthorizer;
  after: RbacAuthorizer;
}

/**
 * The rules the review gives for a user's flips one way. A change of `anonymous` or `authenticated` reaches every
 * user: it is told once, not per user.
 */
const explanation = (impact: AccessImpact, entry: AccessImpact['changes'][number] | undefined, gained: boolean) =>
  gained
    ? [...impact.authenticatedGained, ...(entry?.gained ?? [])]
    : [...impact.authenticatedLost, ...(entry?.lost ?? [])];

const flipOf = (gained: boolean) => (gained ? 'gains' : 'loses');

/**
 * Tells in `problems` every decision of `user` the change flips that the review does not explain; returns how many
 * flipped. A check made thousands of times: a message each, not an expect() each (docs/adr/0044-a-short-test-loop.md).
 */
function userFlipsUnexplained(user: string, { world, next, change, impact, before, after }: Case, problems: string[]) {
  const entry = impact.changes.find((c) => c.user === user);
  const info = { name: user, groups: [...LOGGED_IN_GROUPS] };
  let flips = 0;
  for (const attrs of requests) {
    const was = canAct(world, user, change) && before.decide(info, attrs).decision === 'Allow';
    const will = canAct(next, user, change) && after.decide(info, attrs).decision === 'Allow';
    if (was === will) continue;
    flips++;
    if (!allowedBy(explanation(impact, entry, will), attrs))
      problems.push(`${user} ${flipOf(will)} ${JSON.stringify(attrs)}`);
  }
  return flips;
}

describe('accessImpact', () => {
  it('explains every decision that applying the change flips, and lists nobody else, over random worlds', () => {
    let flips = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const { world, p } = randomWorld(seed);
      const change = randomChange(p);
      const impact = accessImpact(world, change);
      const next = applied(world, change);
      const before = new RbacAuthorizer(world);
      const after = new RbacAuthorizer(next);
      const problems: string[] = [];
      for (const user of USERS) {
        flips += userFlipsUnexplained(user, { world, next, change, impact, before, after }, problems);
      }
      for (const attrs of requests) {
        const was = before.decide(ANONYMOUS, attrs).decision === 'Allow';
        const will = after.decide(ANONYMOUS, attrs).decision === 'Allow';
        if (was !== will && !allowedBy(will ? impact.anonymousGained : impact.anonymousLost, attrs)) {
          problems.push(`anonymous ${flipOf(will)} ${JSON.stringify(attrs)}`);
        }
      }
      expect({ seed, change, problems }).toEqual({ seed, change, problems: [] });
      expect(impact.usersAffected).toBe(impact.changes.length);
    }
    // The worlds are not trivial: many decisions flipped.
    expect(flips).toBeGreaterThan(100);
  });

  it('gains no rule the user already held through another role', () => {
    const { world } = randomWorld(3);
    const wide = { verbs: ['*'], apiGroups: ['*'], resources: ['*'] };
    world.graph.set({ apiVersion: 'v1alpha1', kind: 'Role', metadata: { name: 'wide' }, rules: [wide] });
    world.graph.set({
      apiVersion: 'v1alpha1',
      kind: 'Role',
      metadata: { name: 'narrow' },
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['persons'] }],
    });
    world.materialise();
    world.bindings.set('wide-ada', { role: 'wide', subjects: ['ada'] });
    const narrow = accessImpact(world, {
      kind: 'binding',
      name: 'narrow-ada',
      binding: { role: 'narrow', subjects: ['ada'] },
    });
    expect(narrow.changes).toEqual([]);
    const widening = accessImpact(world, {
      kind: 'binding',
      name: 'wide-bob',
      binding: { role: 'wide', subjects: ['bob'] },
    });
    expect(widening.changes.map((c) => [c.user, c.gained])).toEqual([['bob', [wide]]]);
  });
});
