import fc from 'fast-check';
import { ANONYMOUS_ROLE, AUTHENTICATED_ROLE, SUPER_ROLE, uncoveredRules, type PolicyRule } from '../../pkg/auth/rbac';
import { ADMIN, RbacWorld, type Actor, type Write } from './rbac-world';

// Model-based check of the role model's escalation rules: random sequences of role and binding writes — rules,
// conditions, dependencies, aggregation labels, UI permissions, templates, bindings, deletions, role assignments,
// users created and deleted (and cleaned up after), tokens limited to some roles — by the super administrator and
// by ordinary users, through the real authoriser, escalation guard, hooks and role-assignment code, with the
// aggregation controller's status computation converging after each write. The invariants: after every step by an
// ordinary user, nobody but a super administrator holds a rule or UI permission that no super administrator granted
// (directly, or to someone who passed it on; conditions compared by this test's own reading of them); after every
// step, some enabled user is still bound to super-role, nobody marked for deletion was given a binding, and nobody
// was taken off a binding by someone without the right to. A failure is shrunk by fast-check to a shortest sequence.
//
// SVC_MODEL_RUNS (default 1500) × SVC_MODEL_STEPS (default 40) steps from SVC_MODEL_SEED (default a fixed seed, so
// that `make test` answers the same every time; `random` for a new one, which a failure prints), e.g.
//   SVC_MODEL_RUNS=10000 SVC_MODEL_STEPS=60 SVC_MODEL_SEED=random npx jest test/model   (600,000 steps)

const RUNS = Number(process.env.SVC_MODEL_RUNS ?? 1500);
const STEPS = Number(process.env.SVC_MODEL_STEPS ?? 40);
const SEED_SETTING = process.env.SVC_MODEL_SEED ?? '20261128';
const SEED = SEED_SETTING === 'random' ? undefined : Number(SEED_SETTING);

const USERS = ['u1', 'u2', 'u3'];
const ROLES = ['r1', 'r2', 'r3', 'r4', ANONYMOUS_ROLE, AUTHENTICATED_ROLE, SUPER_ROLE];
const BINDINGS = ['b1', 'b2', 'b3', 'b4'];
const UI = ['ui:posts', 'ui:users', '*'];

const OWNER = 'spec.owner=${user.name}';

/** The grants a world is made of (conditional ones among them): what lets users write roles and bindings, and what they may then pass on. */
const RULES: PolicyRule[] = [
  { apiGroups: [''], resources: ['roles'], verbs: ['create', 'update', 'delete'] },
  { apiGroups: [''], resources: ['rolebindings'], verbs: ['create', 'update', 'delete'] },
  { apiGroups: [''], resources: ['roles'], verbs: ['bind'], resourceNames: [ANONYMOUS_ROLE] },
  { apiGroups: [''], resources: ['roles'], verbs: ['bind'] },
  { apiGroups: ['content.svc.run'], resources: ['posts'], verbs: ['get'] },
  { apiGroups: ['content.svc.run'], resources: ['posts'], verbs: ['*'] },
  { apiGroups: ['content.svc.run'], resources: ['posts'], verbs: ['*'], where: { fieldSelector: OWNER } },
  { apiGroups: ['content.svc.run'], resources: ['posts'], verbs: ['get'], where: { labelSelector: 'team=a' } },
  {
    apiGroups: ['content.svc.run'],
    resources: ['posts'],
    verbs: ['get', 'update'],
    where: { fieldSelector: OWNER, labelSelector: 'team=a' },
  },
  { apiGroups: [''], resources: ['users'], verbs: ['list'] },
  { apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list'] },
  { apiGroups: [''], resources: ['users'], verbs: ['create', 'delete'] },
  { apiGroups: ['api.console.svc.run'], resources: ['users/permissions'], verbs: ['create'] },
];

/** Holding `escalate` on roles (through `*`, e.g. a dependency on super-role) is the power to grant anything. */
const ESCALATE: PolicyRule = { apiGroups: [''], resources: ['roles'], verbs: ['escalate'] };

const subset = <T>(values: readonly T[], maxLength = 3) =>
  fc.uniqueArray(fc.constantFrom(...values), { maxLength, selector: (v) => JSON.stringify(v) });

const clientWriteArb: fc.Arbitrary<Write> = fc.oneof(
  fc.record({
    op: fc.constant('putRole' as const),
    name: fc.constantFrom(...ROLES),
    rules: subset(RULES),
    dependencies: subset(ROLES, 2),
    aggregateTo: subset(ROLES, 2),
    ui: subset(UI, 2),
  }),
  fc.record({ op: fc.constant('deleteRole' as const), name: fc.constantFrom(...ROLES) }),
  fc.record({
    op: fc.constant('putBinding' as const),
    name: fc.constantFrom(...BINDINGS),
    role: fc.constantFrom(...ROLES),
    subjects: subset(USERS, 2),
  }),
  fc.record({ op: fc.constant('deleteBinding' as const), name: fc.constantFrom(...BINDINGS) }),
  fc.record({ op: fc.constant('assign' as const), user: fc.constantFrom(...USERS, ADMIN), roles: subset(ROLES, 2) }),
  fc.record({ op: fc.constant('createUser' as const), name: fc.constantFrom(...USERS) }),
  fc.record({ op: fc.constant('deleteUser' as const), name: fc.constantFrom(...USERS, ADMIN) }),
);
/** Now and then the user-cleanup controller runs, so that writes come between a user's mark and their cleanup, and after it. */
const writeArb: fc.Arbitrary<Write> = fc.oneof(
  { weight: 12, arbitrary: clientWriteArb },
  { weight: 1, arbitrary: fc.constant({ op: 'cleanUpUsers' as const }) },
);

const actorArb: fc.Arbitrary<Actor> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ name: ADMIN }) },
  { weight: 4, arbitrary: fc.record({ name: fc.constantFrom(...USERS) }) },
  { weight: 1, arbitrary: fc.record({ name: fc.constantFrom(...USERS), roleLimit: subset(ROLES, 2) }) },
);

/**
 * A sequence: first the super administrator gives the users roles of random grants (so that ordinary users can
 * write roles and bindings in most sequences), then writes by anyone.
 */
const setupArb = fc.array(
  fc.oneof(
    fc.record({
      op: fc.constant('putRole' as const),
      name: fc.constantFrom(...ROLES.slice(0, 3)),
      rules: subset(RULES, 4),
      dependencies: fc.constant<string[]>([]),
      aggregateTo: fc.constant<string[]>([]),
      ui: subset(UI.slice(0, 2), 1),
    }),
    fc.record({
      op: fc.constant('putBinding' as const),
      name: fc.constantFrom(...BINDINGS),
      role: fc.constantFrom(...ROLES.slice(0, 3)),
      subjects: subset(USERS, 2),
    }),
  ),
  { minLength: 2, maxLength: 8 },
);
const stepsArb = fc.tuple(
  setupArb,
  fc.array(fc.record({ actor: actorArb, write: writeArb }), { maxLength: STEPS, size: 'max' }),
);

/**
 * The held rules that the granted ones do not cover, conditions judged apart from the product's own comparison: a
 * granted rule with a condition covers only held rules whose condition has every one of its terms (the selectors
 * split at commas; the conditions here have no sets); a granted rule without one covers any.
 */
function ungrantedRules(granted: PolicyRule[], held: PolicyRule[]): PolicyRule[] {
  const terms = (rule: PolicyRule) =>
    [rule.where?.fieldSelector, rule.where?.labelSelector && `labels ${rule.where.labelSelector}`]
      .filter((t): t is string => !!t)
      .flatMap((t) => t.split(',').map((term) => term.trim()));
  const bare = ({ where: _where, ...rule }: PolicyRule): PolicyRule => rule;
  return held.filter((rule) => {
    const wanted = terms(rule);
    const owners = granted.filter((g) => g.where === undefined || terms(g).every((t) => wanted.includes(t)));
    return uncoveredRules(owners.map(bare), [bare(rule)]).length > 0;
  });
}

/** What no super administrator granted, that someone holds: `[]` when the world keeps the invariant. */
function ungranted(world: RbacWorld, pool: { rules: PolicyRule[]; ui: Set<string> }): string[] {
  const problems: string[] = [];
  if (uncoveredRules(pool.rules, [ESCALATE]).length === 0) return problems;
  for (const name of [...USERS, ANONYMOUS_ROLE]) {
    const user =
      name === ANONYMOUS_ROLE ? { name: 'system:anonymous', groups: [ANONYMOUS_ROLE] } : world.userInfo({ name });
    const held = world.held(user);
    const rules = ungrantedRules(pool.rules, held.rules);
    const ui = held.ui.filter((p) => !pool.ui.has(p) && !pool.ui.has('*'));
    if (rules.length || ui.length) problems.push(`${name} holds ${JSON.stringify({ rules, ui })}`);
  }
  return problems;
}

/** Adds what every ordinary user (and the anonymous visitor) holds now to what super administrators granted. */
function grantAll(world: RbacWorld, pool: { rules: PolicyRule[]; ui: Set<string> }): void {
  for (const name of USERS) {
    const held = world.held(world.userInfo({ name }));
    pool.rules.push(...held.rules);
    for (const p of held.ui) pool.ui.add(p);
  }
}

describe('no sequence of role and binding writes lets an ordinary user grant what no super administrator granted', () => {
  it(`holds over ${RUNS} random sequences of up to ${STEPS} writes`, async () => {
    let steps = 0;
    let refused = 0;
    /** Writes that succeeded, per operation. */
    const done = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(stepsArb, async ([setup, sequence]) => {
        const world = new RbacWorld(USERS);
        const pool = { rules: [] as PolicyRule[], ui: new Set<string>() };
        for (const write of setup) await world.send({ name: ADMIN }, write);
        grantAll(world, pool);
        for (const [i, { actor, write }] of sequence.entries()) {
          const before = world.subjectsNow();
          const decide = world.bindingDecisions(actor);
          const code = await world.send(actor, write);
          steps++;
          if (code !== 200) refused++;
          else done.set(write.op, (done.get(write.op) ?? 0) + 1);
          const userProblems = world.userProblems();
          // The user-cleanup controller takes deleted users off bindings; everyone else needs the right to.
          if (write.op !== 'cleanUpUsers') userProblems.push(...world.unauthorisedRemovals(before, decide));
          if (userProblems.length) {
            throw new Error(
              `step ${i} (${actor.name}: ${JSON.stringify(write)} → ${code}): ${userProblems.join('; ')}`,
            );
          }
          if (actor.name === ADMIN) {
            grantAll(world, pool);
            continue;
          }
          const problems = ungranted(world, pool);
          if (problems.length) {
            throw new Error(`step ${i} (${actor.name}: ${JSON.stringify(write)} → ${code}): ${problems.join('; ')}`);
          }
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: false },
    );
    // The sequences did exercise both outcomes (a generator that only made refused writes would prove nothing).
    expect(refused).toBeGreaterThan(0);
    expect(steps - refused).toBeGreaterThan(0);
    for (const op of ['assign', 'deleteUser', 'createUser'] as const) expect(done.get(op)).toBeGreaterThan(0);
  });
});
