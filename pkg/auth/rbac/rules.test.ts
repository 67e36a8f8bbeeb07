import type { RequestAttributes } from '../attributes';
import { describeRule, ruleAllows, ruleMismatches } from './rules';
import type { PolicyRule } from './types';

/** A resource request: `verb group resource[/sub] [name]`. */
function res(verb: string, apiGroup: string, resource: string, name = ''): RequestAttributes {
  const [plural, subresource = ''] = resource.split('/');
  return { isResourceRequest: true, path: '/apis/x', verb, apiGroup, resource: plural, subresource, name };
}
function url(verb: string, path: string): RequestAttributes {
  return { isResourceRequest: false, path, verb, apiGroup: '', resource: '', subresource: '', name: '' };
}

const persons: PolicyRule = { verbs: ['get', 'list'], apiGroups: ['example.com'], resources: ['persons'] };
const SUPER: PolicyRule = { apiGroups: ['*'], resources: ['*'], nonResourceURLs: ['*'], verbs: ['*'] };

const cases: [string, PolicyRule, RequestAttributes, boolean][] = [
  ['exact verb, group, resource', persons, res('get', 'example.com', 'persons', 'ada'), true],
  ['list a collection', persons, res('list', 'example.com', 'persons'), true],
  ['verb not listed', persons, res('delete', 'example.com', 'persons', 'ada'), false],
  ['other group', persons, res('get', 'other.com', 'persons', 'ada'), false],
  ['other resource', persons, res('get', 'example.com', 'posts', 'x'), false],
  ['plural does not cover its subresource', persons, res('get', 'example.com', 'persons/status', 'ada'), false],
  [
    'verb *',
    { verbs: ['*'], apiGroups: ['example.com'], resources: ['persons'] },
    res('deletecollection', 'example.com', 'persons'),
    true,
  ],
  [
    'group *',
    { verbs: ['get'], apiGroups: ['*'], resources: ['persons'] },
    res('get', 'any.org', 'persons', 'a'),
    true,
  ],
  ['core group ""', { verbs: ['get'], apiGroups: [''], resources: ['users'] }, res('get', '', 'users', 'a'), true],
  [
    'core group rule, named group request',
    { verbs: ['get'], apiGroups: [''], resources: ['users'] },
    res('get', 'x.io', 'users', 'a'),
    false,
  ],
  ['no apiGroups matches nothing', { verbs: ['get'], resources: ['users'] }, res('get', '', 'users', 'a'), false],
  [
    'resource * covers subresources',
    { verbs: ['get'], apiGroups: ['*'], resources: ['*'] },
    res('get', 'g', 'persons/status', 'a'),
    true,
  ],
  [
    'plural/sub exact',
    { verbs: ['update'], apiGroups: ['g'], resources: ['persons/status'] },
    res('update', 'g', 'persons/status', 'a'),
    true,
  ],
  [
    'plural/sub does not cover the plural',
    { verbs: ['update'], apiGroups: ['g'], resources: ['persons/status'] },
    res('update', 'g', 'persons', 'a'),
    false,
  ],
  [
    'plural/sub, other sub',
    { verbs: ['update'], apiGroups: ['g'], resources: ['persons/status'] },
    res('update', 'g', 'persons/scale', 'a'),
    false,
  ],
  [
    'plural/sub, other plural',
    { verbs: ['update'], apiGroups: ['g'], resources: ['persons/status'] },
    res('update', 'g', 'posts/status', 'a'),
    false,
  ],
  [
    '*/sub matches any plural with that sub',
    { verbs: ['get'], apiGroups: ['g'], resources: ['*/status'] },
    res('get', 'g', 'posts/status', 'a'),
    true,
  ],
  [
    '*/sub, other sub',
    { verbs: ['get'], apiGroups: ['g'], resources: ['*/status'] },
    res('get', 'g', 'posts/scale', 'a'),
    false,
  ],
  [
    '*/sub does not match the plural',
    { verbs: ['get'], apiGroups: ['g'], resources: ['*/status'] },
    res('get', 'g', 'posts', 'a'),
    false,
  ],
  [
    'one-letter plural with sub',
    { verbs: ['get'], apiGroups: ['g'], resources: ['p/status'] },
    res('get', 'g', 'p/status', 'a'),
    true,
  ],
  [
    'second resource entry',
    { verbs: ['get'], apiGroups: ['g'], resources: ['posts', 'persons'] },
    res('get', 'g', 'persons', 'a'),
    true,
  ],
  [
    'first resourceNames entry',
    { verbs: ['get'], apiGroups: ['g'], resources: ['p'], resourceNames: ['a', 'b', 'c'] },
    res('get', 'g', 'p', 'a'),
    true,
  ],
  [
    'last resourceNames entry',
    { verbs: ['get'], apiGroups: ['g'], resources: ['p'], resourceNames: ['a', 'b', 'c'] },
    res('get', 'g', 'p', 'c'),
    true,
  ],
  [
    'name not in resourceNames',
    { verbs: ['get'], apiGroups: ['g'], resources: ['p'], resourceNames: ['a', 'b'] },
    res('get', 'g', 'p', 'd'),
    false,
  ],
  [
    'resourceNames is not a prefix pattern',
    { verbs: ['get'], apiGroups: ['g'], resources: ['p'], resourceNames: ['a*'] },
    res('get', 'g', 'p', 'ab'),
    false,
  ],
  [
    'empty resourceNames means any name',
    { verbs: ['get'], apiGroups: ['g'], resources: ['p'], resourceNames: [] },
    res('get', 'g', 'p', 'z'),
    true,
  ],
  [
    '"-" is an ordinary name',
    { verbs: ['get'], apiGroups: ['g'], resources: ['users/permissions'], resourceNames: ['-'] },
    res('get', 'g', 'users/permissions', '-'),
    true,
  ],
  [
    '"-" rule, other name',
    { verbs: ['get'], apiGroups: ['g'], resources: ['users'], resourceNames: ['-'] },
    res('get', 'g', 'users', 'ada'),
    false,
  ],
  [
    'resourceNames never match create',
    { verbs: ['create'], apiGroups: ['g'], resources: ['p'], resourceNames: ['a'] },
    res('create', 'g', 'p', 'a'),
    false,
  ],
  [
    'resourceNames never match list',
    { verbs: ['list'], apiGroups: ['g'], resources: ['p'], resourceNames: ['a'] },
    res('list', 'g', 'p', 'a'),
    false,
  ],
  [
    'resourceNames never match deletecollection',
    { verbs: ['*'], apiGroups: ['g'], resources: ['p'], resourceNames: ['a'] },
    res('deletecollection', 'g', 'p', 'a'),
    false,
  ],
  [
    'resourceNames never match a collection watch',
    { verbs: ['watch'], apiGroups: ['g'], resources: ['p'], resourceNames: ['a'] },
    res('watch', 'g', 'p'),
    false,
  ],
  [
    'resourceNames match a named watch',
    { verbs: ['watch'], apiGroups: ['g'], resources: ['p'], resourceNames: ['a'] },
    res('watch', 'g', 'p', 'a'),
    true,
  ],
  [
    'resourceNames match delete by name',
    { verbs: ['delete'], apiGroups: ['g'], resources: ['p'], resourceNames: ['x', 'a'] },
    res('delete', 'g', 'p', 'a'),
    true,
  ],
  ['resource rule, non-resource request', persons, url('get', '/apis/example.com'), false],
  ['url rule, resource request', { verbs: ['get'], nonResourceURLs: ['*'] }, res('get', '', 'users', 'a'), false],
  ['url exact', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, url('get', '/healthz'), true],
  ['url exact, other path', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, url('get', '/healthz/x'), false],
  ['url prefix *', { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, url('get', '/healthz/x'), true],
  ['url prefix * deep', { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, url('get', '/healthz/x/y'), true],
  ['/apis/* does not match /apis', { verbs: ['get'], nonResourceURLs: ['/apis/*'] }, url('get', '/apis'), false],
  ['url prefix without slash', { verbs: ['get'], nonResourceURLs: ['/api*'] }, url('get', '/apis'), true],
  ['url *', { verbs: ['get'], nonResourceURLs: ['*'] }, url('get', '/anything'), true],
  ['url verb is the method', { verbs: ['post'], nonResourceURLs: ['/login'] }, url('post', '/login'), true],
  ['url verb mismatch', { verbs: ['get'], nonResourceURLs: ['/login'] }, url('post', '/login'), false],
  ['url verb *', { verbs: ['*'], nonResourceURLs: ['/login'] }, url('delete', '/login'), true],
  ['super-role: resources', SUPER, res('delete', 'x.io', 'anything/status', 'n'), true],
  ['super-role: urls', SUPER, url('put', '/x'), true],
];

describe('ruleAllows', () => {
  it.each(cases)('%s', (_title, rule, attrs, allowed) => {
    expect(ruleAllows(rule, attrs)).toBe(allowed);
    expect(ruleMismatches(rule, attrs).length === 0).toBe(allowed);
  });
});

describe('ruleMismatches', () => {
  it('names every failing field', () => {
    expect(ruleMismatches(persons, res('delete', 'x.io', 'persons/status', 'ada'))).toEqual([
      'verb "delete" not in [get, list]',
      'group "x.io" not in [example.com]',
      'resource "persons/status" not in [persons]',
    ]);
  });
  it('says why resourceNames fail', () => {
    const rule = { verbs: ['*'], apiGroups: ['g'], resources: ['p'], resourceNames: ['a', 'b'] };
    expect(ruleMismatches(rule, res('get', 'g', 'p', 'c'))).toEqual(['name "c" not in [a, b]']);
    expect(ruleMismatches(rule, res('list', 'g', 'p'))).toEqual([
      "the rule's resourceNames [a, b] never allow a nameless list",
    ]);
    expect(ruleMismatches(rule, res('create', 'g', 'p', 'a'))).toEqual([
      "the rule's resourceNames [a, b] never allow create",
    ]);
  });
  it('says when a rule is of the other kind', () => {
    expect(ruleMismatches(persons, url('get', '/healthz'))).toEqual([
      'path "/healthz": the rule has no nonResourceURLs',
    ]);
    expect(ruleMismatches({ verbs: ['get'], nonResourceURLs: ['/x'] }, res('get', '', 'users'))).toEqual([
      'resource "users": the rule has no resources',
    ]);
  });
});

describe('describeRule', () => {
  it('renders resource and URL rules in one line', () => {
    expect(describeRule({ verbs: ['get', 'list'], apiGroups: [''], resources: ['users'], resourceNames: ['-'] })).toBe(
      'get,list users in group "" [-]',
    );
    expect(describeRule({ verbs: ['get'], nonResourceURLs: ['/healthz/*'] })).toBe('get /healthz/*');
  });
});
