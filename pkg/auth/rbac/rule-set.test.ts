import { isDeepStrictEqual } from 'node:util';
import type { RequestAttributes } from '../attributes';
import { RuleSet, namesAllowed } from './rule-set';
import { ruleAllows } from './rules';
import type { PolicyRule } from './types';

/** A small deterministic PRNG (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'bind', 'escalate'];
const URL_VERBS = ['get', 'post', 'put', 'delete'];
const GROUPS = ['', 'example.com', 'content.svc.run'];
const PLURALS = ['persons', 'posts', 'p'];
const SUBS = ['status', 'scale'];
const NAMES = ['a', 'b', '-', 'c'];
const PATHS = ['/healthz', '/healthz/x', '/apis', '/apis/g', '/login', '/'];
const URL_PATTERNS = ['*', '/healthz', '/healthz/*', '/apis/*', '/api*', '/login', '/'];

/**
 * What is wrong with `ruleSet.namesAllowed(attrs)` against a scan of `rules`: `'all'` when a rule allows the
 * collection or any name, else exactly the names rules with resourceNames allow.
 */
function namesProblems(ruleSet: RuleSet, rules: PolicyRule[], attrs: RequestAttributes): string[] {
  const names = ruleSet.namesAllowed(attrs);
  const anyName = (name: string) => rules.some((rule) => ruleAllows(rule, { ...attrs, name }));
  const want =
    anyName('') || anyName('zz-unlisted')
      ? 'all'
      : new Set(
          NAMES.filter((name) =>
            rules.some((rule) => ruleAllows(rule, { ...attrs, name }) && (rule.resourceNames ?? []).length > 0),
          ),
        );
  if (isDeepStrictEqual(names, want)) return [];
  const show = (n: 'all' | Set<string>) => (n === 'all' ? n : [...n]);
  return [`namesAllowed ${JSON.stringify(show(names))}, want ${JSON.stringify(show(want))}: ${JSON.stringify(attrs)}`];
}

describe('RuleSet', () => {
  it('answers as a linear scan of ruleAllows (random rules and requests)', () => {
    const rnd = random(42);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
    const some = <T>(xs: readonly T[], wildcard?: T) => {
      if (wildcard !== undefined && rnd() < 0.15) return [wildcard];
      const n = 1 + Math.floor(rnd() * 2);
      return Array.from({ length: n }, () => pick(xs));
    };
    const resource = () => {
      const r = rnd();
      if (r < 0.1) return '*';
      if (r < 0.2) return `*/${pick(SUBS)}`;
      if (r < 0.45) return `${pick(PLURALS)}/${pick(SUBS)}`;
      return pick(PLURALS);
    };
    const randomRule = (): PolicyRule => {
      const rule: PolicyRule = { verbs: [] };
      if (rnd() < 0.75) {
        rule.verbs = some(VERBS, '*');
        rule.apiGroups = rnd() < 0.05 ? [] : some(GROUPS, '*');
        rule.resources = Array.from({ length: 1 + Math.floor(rnd() * 2) }, resource);
        if (rnd() < 0.35) rule.resourceNames = rnd() < 0.1 ? [] : some(NAMES);
        if (rnd() < 0.05) rule.nonResourceURLs = some(URL_PATTERNS);
      } else {
        rule.verbs = some(URL_VERBS, '*');
        rule.nonResourceURLs = some(URL_PATTERNS);
      }
      return rule;
    };
    const randomRequest = (): RequestAttributes => {
      if (rnd() < 0.2) {
        return {
          isResourceRequest: false,
          path: pick(PATHS),
          verb: pick(URL_VERBS),
          apiGroup: '',
          resource: '',
          subresource: '',
          name: '',
        };
      }
      return {
        isResourceRequest: true,
        path: '/apis/x',
        verb: pick(VERBS),
        apiGroup: pick(GROUPS),
        resource: pick(PLURALS),
        subresource: rnd() < 0.3 ? pick(SUBS) : '',
        name: rnd() < 0.3 ? '' : pick(NAMES),
      };
    };

    // Forty thousand questions: what is wrong is told in `problems`, not in an expect() each
    // (docs/adr/0044-a-short-test-loop.md).
    const problems: string[] = [];
    let allowed = 0;
    let checked = 0;
    for (let set = 0; set < 400; set++) {
      const rules = Array.from({ length: 1 + Math.floor(rnd() * 8) }, randomRule);
      const ruleSet = new RuleSet(rules);
      for (let q = 0; q < 100; q++) {
        const attrs = randomRequest();
        const expected = rules.some((rule) => ruleAllows(rule, attrs));
        const found = ruleSet.allows(attrs);
        if ((found !== undefined) !== expected)
          throw new Error(`mismatch for ${JSON.stringify(attrs)} over ${JSON.stringify(rules)}`);
        if (found !== undefined) {
          if (!ruleAllows(found, attrs))
            problems.push(`${JSON.stringify(found)} does not allow ${JSON.stringify(attrs)}`);
          allowed++;
        }
        if (attrs.isResourceRequest && attrs.name === '') problems.push(...namesProblems(ruleSet, rules, attrs));
        checked++;
      }
    }
    expect(problems).toEqual([]);
    // both answers occur often enough for the comparison to mean something
    expect(allowed).toBeGreaterThan(checked / 10);
    expect(allowed).toBeLessThan(checked * 0.9);
  });

  it('answers for more distinct verbs than it has bits', () => {
    const verbs = Array.from({ length: 40 }, (_, i) => `verb${i}`);
    const rules: PolicyRule[] = [
      { verbs: verbs.slice(0, 25), apiGroups: ['g'], resources: ['persons'] },
      { verbs: verbs.slice(20), apiGroups: ['g'], resources: ['posts'], resourceNames: ['a'] },
    ];
    const set = new RuleSet(rules);
    for (const verb of [...verbs, 'get']) {
      for (const resource of ['persons', 'posts']) {
        for (const name of ['a', 'b', '']) {
          const attrs = { isResourceRequest: true, path: '', verb, apiGroup: 'g', resource, subresource: '', name };
          expect(set.allows(attrs) !== undefined).toBe(rules.some((rule) => ruleAllows(rule, attrs)));
        }
      }
    }
    const watchAll = {
      isResourceRequest: true,
      path: '',
      verb: 'verb39',
      apiGroup: 'g',
      resource: 'posts',
      subresource: '',
    };
    expect(set.namesAllowed(watchAll)).toEqual(new Set(['a']));
  });

  it('returns the rule that allows', () => {
    const rules: PolicyRule[] = [
      { verbs: ['get'], apiGroups: ['g'], resources: ['persons'] },
      { verbs: ['get'], nonResourceURLs: ['/healthz/*'] },
    ];
    const set = new RuleSet(rules);
    expect(
      set.allows({
        isResourceRequest: true,
        path: '',
        verb: 'get',
        apiGroup: 'g',
        resource: 'persons',
        subresource: '',
        name: 'a',
      }),
    ).toBe(rules[0]);
    expect(
      set.allows({
        isResourceRequest: false,
        path: '/healthz/ready',
        verb: 'get',
        apiGroup: '',
        resource: '',
        subresource: '',
        name: '',
      }),
    ).toBe(rules[1]);
    expect(set.rules).toBe(rules);
  });
});

describe('namesAllowed', () => {
  const watch = {
    isResourceRequest: true,
    path: '',
    verb: 'watch',
    apiGroup: 'g',
    resource: 'persons',
    subresource: '',
  };
  it('is "all" when a rule without resourceNames allows the watch', () => {
    expect(namesAllowed(new RuleSet([{ verbs: ['watch'], apiGroups: ['*'], resources: ['persons'] }]), watch)).toBe(
      'all',
    );
  });
  it('is the union of the names of watch rules that all carry resourceNames', () => {
    const set = new RuleSet([
      { verbs: ['watch', 'get'], apiGroups: ['g'], resources: ['persons'], resourceNames: ['a', 'b'] },
      { verbs: ['*'], apiGroups: ['*'], resources: ['persons'], resourceNames: ['c'] },
      { verbs: ['watch'], apiGroups: ['g'], resources: ['posts'], resourceNames: ['d'] },
      { verbs: ['get'], apiGroups: ['g'], resources: ['persons'], resourceNames: ['e'] },
    ]);
    expect(namesAllowed(set, watch)).toEqual(new Set(['a', 'b', 'c']));
  });
  it('is empty when nothing allows the watch', () => {
    expect(namesAllowed(new RuleSet([{ verbs: ['get'], apiGroups: ['g'], resources: ['persons'] }]), watch)).toEqual(
      new Set(),
    );
  });
  it('gives no names for list: resourceNames never allow it', () => {
    const set = new RuleSet([{ verbs: ['list'], apiGroups: ['g'], resources: ['persons'], resourceNames: ['a'] }]);
    expect(namesAllowed(set, { ...watch, verb: 'list' })).toEqual(new Set());
  });
});
