import { isDeepStrictEqual } from 'node:util';
import type { RequestAttributes } from '../attributes';
import { RbacAuthorizer, ruleAllows } from '../rbac';
import { ANONYMOUS, LOGGED_IN_GROUPS } from '../user';
import {
  randomRequest,
  randomRole,
  randomWorld,
  roleNames,
  USERS,
  type Picker,
  type TestWorld,
} from '../../../test/support/rbac-insight-world';
import type { AccessIndex } from './access-index';
import { whoCan, type WhoCanAnswer } from './who-can';

/** Every page of a who-can answer, `limit` users at a time. */
function allPages(index: AccessIndex, world: TestWorld, attrs: RequestAttributes, limit: number) {
  const pages: WhoCanAnswer[] = [];
  let after = '';
  do {
    const page = whoCan(index, world, attrs, { limit, after });
    pages.push(page);
    after = page.continueAfter;
  } while (after !== '' && pages.length < 100);
  return { first: pages[0], users: pages.flatMap((p) => p.users) };
}

/** The users brute force finds: every user named anywhere, not disabled, whose own bindings allow the request. */
function bruteForce(world: TestWorld, attrs: RequestAttributes): string[] {
  const authorizer = new RbacAuthorizer(world);
  const names = new Set<string>(USERS);
  return [...names]
    .filter((name) => !world.isDisabled(name))
    .filter((name) => authorizer.decide({ name, groups: [] }, attrs).decision === 'Allow')
    .sort();
}

/**
 * What is wrong with the paged who-can answer to `attrs`, against brute force: an empty list when nothing is. The
 * checks are plain comparisons, collected, and each case expects its whole list to be empty once: a case asks
 * thousands of questions, and jest's expect() costs more per call than the question it checks.
 */
function wrongAnswers(index: AccessIndex, world: TestWorld, attrs: RequestAttributes): string[] {
  const authorizer = new RbacAuthorizer(world);
  const { first, users } = allPages(index, world, attrs, 3);
  const wrong: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) wrong.push(`${JSON.stringify(attrs)}: ${what}`);
  };
  const names = users.map((u) => u.name);
  const expected = bruteForce(world, attrs);
  check(isDeepStrictEqual(names, expected), `users ${JSON.stringify(names)}, brute force ${JSON.stringify(expected)}`);
  check(first.total === users.length, `total ${first.total} for ${users.length} users`);
  const anonymous = authorizer.decide(ANONYMOUS, attrs).decision === 'Allow';
  check(first.anonymous === anonymous, `anonymous ${first.anonymous}, brute force ${anonymous}`);
  const loggedIn = { name: 'nobody-at-all', groups: [...LOGGED_IN_GROUPS] };
  const authenticated = authorizer.decide(loggedIn, attrs).decision === 'Allow';
  check(first.authenticated === authenticated, `authenticated ${first.authenticated}, brute force ${authenticated}`);
  for (const user of users) {
    check(user.via.length > 0, `${user.name} without a path`);
    for (const via of user.via) {
      const path = `${user.name} via ${JSON.stringify(via)}`;
      check(ruleAllows(via.rule!, attrs), `${path}: the rule does not allow the request`);
      check(via.path[0] === via.role, `${path}: the path does not start at the bound role`);
      const origin = world.graph.role(via.path[via.path.length - 1])!;
      check(
        (origin.rules ?? []).some((rule) => isDeepStrictEqual(rule, via.rule)),
        `${path}: the rule is not one of the last role's`,
      );
      check(world.bindings.get(via.binding!)!.subjects.includes(user.name), `${path}: the binding does not name them`);
    }
  }
  return wrong;
}

/** One random change of a role, a binding or a user, made to the world and told to the index. */
function randomStep(p: Picker, world: TestWorld, index: AccessIndex): void {
  const names = roleNames(8);
  const r = p.rnd();
  if (r < 0.35) {
    const name = p.pick(names);
    if (p.rnd() < 0.2) world.graph.remove(name);
    else world.graph.set(randomRole(p, name, names));
    world.materialise();
    // Every role may have changed (its status): as the cache tells the index of each status write.
    for (const role of names) index.roleChanged(role, world.role(role));
  } else if (r < 0.8) {
    const name = `binding-${Math.floor(p.rnd() * 18)}`;
    const binding = p.rnd() < 0.25 ? undefined : { role: p.pick(names), subjects: p.some(USERS, 3) };
    if (binding) world.bindings.set(name, binding);
    else world.bindings.delete(name);
    index.bindingChanged(name, binding);
  } else {
    const user = p.pick(USERS);
    const disabled = p.rnd() < 0.5;
    if (disabled) world.disabled.add(user);
    else world.disabled.delete(user);
    index.userChanged(user, disabled);
  }
}

describe('whoCan', () => {
  it('names exactly the users brute force finds, over random worlds, paged, each with a path that grants it', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const { world, p } = randomWorld(seed);
      const index = world.index();
      const wrong: string[] = [];
      for (let q = 0; q < 25; q++) wrong.push(...wrongAnswers(index, world, randomRequest(p)));
      expect({ seed, wrong }).toEqual({ seed, wrong: [] });
    }
  });

  it('stays right as roles, bindings and users change one by one', () => {
    for (let seed = 100; seed < 120; seed++) {
      const { world, p } = randomWorld(seed);
      const index = world.index();
      const wrong: string[] = [];
      for (let step = 0; step < 15; step++) {
        randomStep(p, world, index);
        for (let q = 0; q < 10; q++) wrong.push(...wrongAnswers(index, world, randomRequest(p)));
      }
      expect({ seed, wrong }).toEqual({ seed, wrong: [] });
    }
  });

  it('answers a question asked before afresh once a role, a binding or a user has changed (its kept answers)', () => {
    for (let seed = 200; seed < 215; seed++) {
      const { world, p } = randomWorld(seed);
      const index = world.index();
      const questions = Array.from({ length: 8 }, () => randomRequest(p));
      const wrong: string[] = [];
      for (let step = 0; step < 20; step++) {
        for (const attrs of questions) wrong.push(...wrongAnswers(index, world, attrs));
        randomStep(p, world, index);
      }
      expect({ seed, wrong }).toEqual({ seed, wrong: [] });
    }
  });

  it('pages by name and counts every user', () => {
    const { world } = randomWorld(7);
    world.graph.set({
      apiVersion: 'v1alpha1',
      kind: 'Role',
      metadata: { name: 'reader' },
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['zebras'] }],
    });
    world.materialise();
    world.bindings.set('readers', { role: 'reader', subjects: ['c', 'a', 'b', 'd'] });
    world.disabled.add('b');
    const index = world.index();
    const attrs: RequestAttributes = {
      isResourceRequest: true,
      path: '',
      verb: 'get',
      apiGroup: '',
      resource: 'zebras',
      subresource: '',
      name: 'z',
    };
    const first = whoCan(index, world, attrs, { limit: 2, after: '' });
    expect(first.users.map((u) => u.name)).toEqual(['a', 'c']);
    expect(first.total).toBe(3);
    expect(first.continueAfter).toBe('c');
    const second = whoCan(index, world, attrs, { limit: 2, after: 'c' });
    expect(second.users.map((u) => u.name)).toEqual(['d']);
    expect(second.continueAfter).toBe('');
    expect(first.users[0].via).toEqual([
      {
        binding: 'readers',
        role: 'reader',
        path: ['reader'],
        rule: { verbs: ['get'], apiGroups: [''], resources: ['zebras'] },
      },
    ]);
  });
});
