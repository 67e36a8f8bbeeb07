import type { DiscoveredResource } from '../client';
import { describeFailure } from './errors';
import { findResource, resolveResource, resolveWithFieldPath, resourceOfKind } from './resources';

const type = (
  group: string,
  version: string,
  plural: string,
  kind: string,
  shortNames: string[] = [],
  preferred = true,
): DiscoveredResource => ({
  group,
  version,
  plural,
  kind,
  singular: kind.toLowerCase(),
  verbs: ['get'],
  shortNames,
  preferred,
});

const discovered = [
  type('example.com', 'v1beta1', 'persons', 'Person', ['ps'], false),
  type('example.com', 'v1alpha1', 'persons', 'Person', ['ps']),
  type('other.org', 'v1', 'persons', 'Person'),
  type('', 'v1alpha1', 'roles', 'Role'),
  type('apiextensions.svc.run', 'v1alpha1', 'models', 'Model'),
];

describe('resolveResource', () => {
  it.each(['persons', 'person', 'Person', 'PS', 'ps'])(
    'finds %s by plural, singular, kind or short name in the preferred version',
    (arg) => {
      expect(resolveResource(discovered, arg)).toMatchObject({
        group: 'example.com',
        version: 'v1alpha1',
        plural: 'persons',
      });
    },
  );

  it('takes <resource>.<group> to pick a group', () => {
    expect(resolveResource(discovered, 'persons.other.org')).toMatchObject({ group: 'other.org', plural: 'persons' });
    expect(resolveResource(discovered, 'model.apiextensions.svc.run')).toMatchObject({ plural: 'models' });
  });

  it('prefers the core group', () => {
    expect(resolveResource([type('x.io', 'v1', 'roles', 'Role'), ...discovered], 'roles')).toMatchObject({ group: '' });
  });

  it("is the server's error (exit 1, as kubectl), not a usage error, when nothing matches", () => {
    expect(() => resolveResource(discovered, 'cats')).toThrow('the server doesn\'t have a resource type "cats"');
    expect(() => resolveResource(discovered, 'persons.nowhere.net')).toThrow('"persons.nowhere.net"');
    expect(findResource(discovered, 'cats')).toBeUndefined();
    let failure: unknown;
    try {
      resolveResource(discovered, 'cats');
    } catch (err) {
      failure = err;
    }
    expect(describeFailure(failure)).toEqual({
      code: 1,
      text: 'error: the server doesn\'t have a resource type "cats"',
    });
  });
});

describe('resolveWithFieldPath', () => {
  it('takes the longest leading part that names a type, group included, and the rest as the field path', () => {
    expect(resolveWithFieldPath(discovered, 'persons.other.org')).toMatchObject({
      resource: { group: 'other.org', plural: 'persons' },
      path: [],
    });
    expect(resolveWithFieldPath(discovered, 'ps.example.com.spec.age')).toMatchObject({
      resource: { group: 'example.com', version: 'v1alpha1' },
      path: ['spec', 'age'],
    });
    expect(resolveWithFieldPath(discovered, 'person.spec.age')).toMatchObject({
      resource: { group: 'example.com' },
      path: ['spec', 'age'],
    });
    expect(resolveWithFieldPath(discovered, 'roles')).toMatchObject({ resource: { group: '' }, path: [] });
  });

  it('names the first part when no leading part names a type', () => {
    expect(() => resolveWithFieldPath(discovered, 'cats.spec.age')).toThrow(
      'the server doesn\'t have a resource type "cats"',
    );
  });
});

describe('resourceOfKind', () => {
  it('finds the type of an apiVersion and kind, core group included', () => {
    expect(resourceOfKind(discovered, 'example.com/v1beta1', 'Person')).toMatchObject({ version: 'v1beta1' });
    expect(resourceOfKind(discovered, 'v1alpha1', 'Role')).toMatchObject({ plural: 'roles' });
    expect(resourceOfKind(discovered, 'example.com/v9', 'Person')).toBeUndefined();
  });
});
