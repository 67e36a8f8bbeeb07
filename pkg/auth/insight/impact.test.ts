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
import { accessImpact, type ProposedChange } from './impact';

const requests = everyRequest();

/** A random change of a role, a binding, a user or a user's roles. */
function randomChange(p: Picker): ProposedChange {
  const names = roleNames(8);
  const r = p.rnd();
  if (r < 0.4) {
    const name = p.pick(names);
    return { kind: 'role', name, role: p.rnd() < 0.15 ? undefined : randomRole(p, name, names) };
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
  switch (change.kind) {
    case 'role':
      if (change.role === undefined) next.graph.remove(change.name);
      else next.graph.set(change.role);
      break;
    case 'binding':
      if (change.binding === undefined) next.bindings.delete(change.name);
      else next.bindings.set(change.name, change.binding);
      break;
    case 'user':
      if (change.exists) next.users.add(change.name);
      else next.users.delete(change.name);
      if (change.disabled || !change.exists) next.disabled.add(change.name);
      else next.disabled.delete(change.name);
      break;
    case 'assignment':
      for (const [name, b] of world.bindings) {
        if (!b.subjects.includes(change.user)) continue;
        const others = b.subjects.filter((s) => s !== change.user);
        if (others.length) next.bindings.set(name, { ...b, subjects: others });
        else next.bindings.delete(name);
      }
      for (const role of change.roles) next.bindings.set(`assigned-${role}`, { role, subjects: [change.user] });
      break;
  }
  next.materialise();
  return next;
}

/** Whether the user can act at all: exists (when the change is about them) and is not disabled. */
function canAct(world: TestWorld, user: string, change: ProposedChange): boolean {
  if (world.isDisabled(user)) return false;
  return change.kind !== 'user' || change.name !== user || world.userExists(user);
}

const allowedBy = (rules: PolicyRule[], attrs: RequestAttributes) => rules.some((rule) => ruleAllows(rule, attrs));

describe('accessImpact', () => {
  it('explains every decision that applying the change flips, and lists nobody else, over random worlds', () => {
    let flips = 0;
    for (let seed = 1; seed <= 80; seed++) {
      const { world, p } = randomWorld(seed);
      const change = randomChange(p);
      const impact = accessImpact(world, change);
      const next = applied(world, change);
      const before = new RbacAuthorizer(world);
      const after = new RbacAuthorizer(next);
      for (const user of USERS) {
        const entry = impact.changes.find((c) => c.user === user);
        const info = { name: user, groups: [...LOGGED_IN_GROUPS] };
        let userFlips = 0;
        for (const attrs of requests) {
          const was = canAct(world, user, change) && before.decide(info, attrs).decision === 'Allow';
          const will = canAct(next, user, change) && after.decide(info, attrs).decision === 'Allow';
          if (was === will) continue;
          userFlips++;
          // A change of `anonymous` or `authenticated` reaches every user: it is told once, not per user.
          const explained = [
            ...(will ? impact.authenticatedGained : impact.authenticatedLost),
            ...((will ? entry?.gained : entry?.lost) ?? []),
          ];
          expect(allowedBy(explained, attrs)).toBe(true);
        }
        flips += userFlips;
      }
      for (const attrs of requests) {
        const was = before.decide(ANONYMOUS, attrs).decision === 'Allow';
        const will = after.decide(ANONYMOUS, attrs).decision === 'Allow';
        if (was !== will) expect(allowedBy(will ? impact.anonymousGained : impact.anonymousLost, attrs)).toBe(true);
      }
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
