import type { RequestAttributes } from '../../pkg/auth/attributes';
import { AccessIndex, type IndexedBinding } from '../../pkg/auth/insight/access-index';
import type { ImpactWorld } from '../../pkg/auth/insight/impact';
import {
  AGGREGATE_TO_PREFIX,
  computeEffective,
  DEPENDENCIES_ANNOTATION,
  enforcedRole,
  observedDefinitionOf,
  SimpleRoleGraph,
  UI_PERMISSIONS_ANNOTATION,
  withAdmissionStamp,
  type EnforcedRole,
  type PolicyRule,
  type RbacSource,
  type Role,
} from '../../pkg/auth/rbac';

/**
 * Small random RBAC worlds for checking the insight engine against brute
 * force: roles over a few groups, resources, names and URLs (wildcards,
 * resourceNames, dependencies, aggregation, some roles not admitted),
 * bindings over a few users (some disabled), with every role's status
 * materialised as the aggregation controller would.
 */

export const GROUPS = ['', 'a.io', 'b.io'];
export const RESOURCES = ['persons', 'posts', 'persons/status', 'posts/publish'];
export const NAMES = ['ada', 'bob', 'cy'];
export const VERBS = ['get', 'list', 'update', 'delete', 'create', 'watch'];
export const URLS = ['/healthz', '/metrics', '/debug/x'];
export const USERS = Array.from({ length: 12 }, (_, i) => `user-${String(i).padStart(2, '0')}`);

export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Picker {
  rnd: () => number;
  pick<T>(xs: readonly T[]): T;
  some<T>(xs: readonly T[], max: number): T[];
}

export function picker(seed: number): Picker {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const some = <T>(xs: readonly T[], max: number): T[] => [
    ...new Set(Array.from({ length: 1 + Math.floor(rnd() * max) }, () => pick(xs))),
  ];
  return { rnd, pick, some };
}

export function randomRule(p: Picker): PolicyRule {
  if (p.rnd() < 0.1) return { verbs: p.some(['get', 'post'], 2), nonResourceURLs: p.some([...URLS, '/debug/*'], 2) };
  const rule: PolicyRule = {
    verbs: p.rnd() < 0.1 ? ['*'] : p.some(VERBS, 3),
    apiGroups: p.rnd() < 0.1 ? ['*'] : p.some(GROUPS, 2),
    resources: p.rnd() < 0.1 ? ['*'] : p.rnd() < 0.1 ? ['*/status'] : p.some(RESOURCES, 2),
  };
  if (p.rnd() < 0.25) rule.resourceNames = p.some(NAMES, 2);
  return rule;
}

export function roleNames(count: number): string[] {
  return ['anonymous', 'authenticated', ...Array.from({ length: count }, (_, i) => `role-${i}`)];
}

/** A random role named `name` among `names` (edges to others of them). */
export function randomRole(p: Picker, name: string, names: readonly string[]): Role {
  const annotations: Record<string, string> = {};
  const labels: Record<string, string> = {};
  if (p.rnd() < 0.3) annotations[DEPENDENCIES_ANNOTATION] = JSON.stringify(p.some(names, 2));
  if (p.rnd() < 0.2) labels[`${AGGREGATE_TO_PREFIX}${p.pick(names)}`] = 'true';
  if (p.rnd() < 0.3) annotations[UI_PERMISSIONS_ANNOTATION] = JSON.stringify(p.some(['a:view', 'a:manage', 'b:x'], 2));
  const rules =
    name === 'anonymous'
      ? p.rnd() < 0.5
        ? [randomRule(p)]
        : []
      : Array.from({ length: 1 + Math.floor(p.rnd() * 3) }, () => randomRule(p));
  const role: Role = {
    apiVersion: 'v1alpha1',
    kind: 'Role',
    metadata: { name, generation: 1, annotations, labels },
    rules,
  };
  // Most roles are written through the role-write check; a few were stored behind it (their edges do not count).
  return p.rnd() < 0.9 ? withAdmissionStamp(role) : role;
}

export function randomRequest(p: Picker): RequestAttributes {
  if (p.rnd() < 0.1) {
    return {
      isResourceRequest: false,
      path: p.pick(URLS),
      verb: p.pick(['get', 'post']),
      apiGroup: '',
      resource: '',
      subresource: '',
      name: '',
    };
  }
  const [resource, subresource = ''] = p.pick(RESOURCES).split('/');
  return {
    isResourceRequest: true,
    path: '',
    verb: p.pick(VERBS),
    apiGroup: p.pick(GROUPS),
    resource,
    subresource,
    name: p.rnd() < 0.5 ? p.pick(NAMES) : '',
  };
}

/** Every request of the small universe (for comparing decisions before and after a change). */
export function everyRequest(): RequestAttributes[] {
  const out: RequestAttributes[] = [];
  for (const path of URLS)
    for (const verb of ['get', 'post'])
      out.push({ isResourceRequest: false, path, verb, apiGroup: '', resource: '', subresource: '', name: '' });
  for (const verb of VERBS)
    for (const apiGroup of GROUPS)
      for (const r of RESOURCES)
        for (const name of ['', ...NAMES]) {
          const [resource, subresource = ''] = r.split('/');
          out.push({ isResourceRequest: true, path: '', verb, apiGroup, resource, subresource, name });
        }
  return out;
}

/** A world: roles (with materialised status), bindings, disabled users; an RbacSource and an ImpactWorld over it. */
export class TestWorld implements RbacSource, ImpactWorld {
  readonly graph = new SimpleRoleGraph();
  readonly bindings = new Map<string, IndexedBinding>();
  readonly disabled = new Set<string>();
  readonly users = new Set<string>();
  private enforced = new Map<string, EnforcedRole>();

  /** Recomputes every role's status from the graph (the aggregation controller, caught up). */
  materialise(): void {
    this.enforced = new Map();
    for (const name of [...this.graph.names()]) {
      const role = this.graph.role(name)!;
      const effective = computeEffective(this.graph, name);
      const withStatus: Role = {
        ...role,
        status: {
          observedGeneration: role.metadata.generation,
          observedDefinition: observedDefinitionOf(role),
          ...effective,
        },
      };
      this.enforced.set(name, enforcedRole(withStatus));
    }
  }

  bindingsOf(user: string): { binding: string; role: string }[] {
    const out: { binding: string; role: string }[] = [];
    for (const [binding, b] of [...this.bindings].sort(([a], [c]) => (a < c ? -1 : 1)))
      if (b.subjects.includes(user)) out.push({ binding, role: b.role });
    return out;
  }

  role(name: string): EnforcedRole | undefined {
    return this.enforced.get(name);
  }

  roleNames(): string[] {
    return [...this.enforced.keys()];
  }

  usersOf(role: string): string[] {
    const users = new Set<string>();
    for (const b of this.bindings.values()) if (b.role === role) for (const s of b.subjects) users.add(s);
    return [...users];
  }

  binding(name: string): IndexedBinding | undefined {
    return this.bindings.get(name);
  }

  isDisabled(user: string): boolean {
    return this.disabled.has(user);
  }

  userExists(user: string): boolean {
    return this.users.has(user);
  }

  /** A copy to change without touching this world (roles are shared: never mutated). */
  clone(): TestWorld {
    const copy = new TestWorld();
    for (const name of this.graph.names()) copy.graph.set(this.graph.role(name)!);
    for (const [name, binding] of this.bindings) copy.bindings.set(name, binding);
    for (const user of this.disabled) copy.disabled.add(user);
    for (const user of this.users) copy.users.add(user);
    copy.materialise();
    return copy;
  }

  /** An AccessIndex fed with the whole world. */
  index(): AccessIndex {
    const index = new AccessIndex();
    for (const name of this.roleNames()) index.roleChanged(name, this.role(name));
    for (const [name, binding] of this.bindings) index.bindingChanged(name, binding);
    for (const user of this.disabled) index.userChanged(user, true);
    return index;
  }
}

/** A random world from `seed`. */
export function randomWorld(seed: number, roleCount = 8, bindingCount = 14): { world: TestWorld; p: Picker } {
  const p = picker(seed);
  const world = new TestWorld();
  const names = roleNames(roleCount);
  for (const name of names) world.graph.set(randomRole(p, name, names));
  for (let i = 0; i < bindingCount; i++)
    world.bindings.set(`binding-${i}`, { role: p.pick(names), subjects: p.some(USERS, 3) });
  for (const user of USERS) {
    if (p.rnd() < 0.8) world.users.add(user);
    if (p.rnd() < 0.15) world.disabled.add(user);
  }
  world.materialise();
  return { world, p };
}
