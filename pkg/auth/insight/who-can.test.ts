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

function expectMatchesBruteForce(index: AccessIndex, world: TestWorld, attrs: RequestAttributes) {
  const authorizer = new RbacAuthorizer(world);
  const { first, users } = allPages(index, world, attrs, 3);
  expect(users.map((u) => u.name)).toEqual(bruteForce(world, attrs));
  expect(first.total).toBe(users.length);
  expect(first.anonymous).toBe(authorizer.decide(ANONYMOUS, attrs).decision === 'Allow');
  expect(first.authenticated).toBe(
    authorizer.decide({ name: 'nobody-at-all', groups: [...LOGGED_IN_GROUPS] }, attrs).decision === 'Allow',
  );
  for (const user of users) {
    expect(user.via.length).toBeGreaterThan(0);
    for (const via of user.via) {
      expect(ruleAllows(via.rule!, attrs)).toBe(true);
      expect(via.path[0]).toBe(via.role);
      const origin = world.graph.role(via.path[via.path.length - 1])!;
      expect(origin.rules).toContainEqual(via.rule);
      expect(world.bindings.get(via.binding!)!.subjects).toContain(user.name);
    }
  }
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
      for (let q = 0; q < 25; q++) expectMatchesBruteForce(index, world, randomRequest(p));
    }
  });

  it('stays right as roles, bindings and users change one by one', () => {
    for (let seed = 100; seed < 120; seed++) {
      const { world, p } = randomWorld(seed);
      const index = world.index();
      for (let step = 0; step < 15; step++) {
        randomStep(p, world, index);
        for (let q = 0; q < 10; q++) expectMatchesBruteForce(index, world, randomRequest(p));
      }
    }
  });

  it('answers a question asked before afresh once a role, a binding or a user has changed (its kept answers)', () => {
    for (let seed = 200; seed < 215; seed++) {
      const { world, p } = randomWorld(seed);
      const index = world.index();
      const questions = Array.from({ length: 8 }, () => randomRequest(p));
      for (let step = 0; step < 20; step++) {
        for (const attrs of questions) expectMatchesBruteForce(index, world, attrs);
        randomStep(p, world, index);
      }
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
