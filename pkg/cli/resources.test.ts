import type { DiscoveredResource } from '../client';
import { resolveResource, resourceOfKind } from './resources';

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

  it('is a usage error when nothing matches', () => {
    expect(() => resolveResource(discovered, 'cats')).toThrow('the server doesn\'t have a resource type "cats"');
    expect(() => resolveResource(discovered, 'persons.nowhere.net')).toThrow('"persons.nowhere.net"');
  });
});

describe('resourceOfKind', () => {
  it('finds the type of an apiVersion and kind, core group included', () => {
    expect(resourceOfKind(discovered, 'example.com/v1beta1', 'Person')).toMatchObject({ version: 'v1beta1' });
    expect(resourceOfKind(discovered, 'v1alpha1', 'Role')).toMatchObject({ plural: 'roles' });
    expect(resourceOfKind(discovered, 'example.com/v9', 'Person')).toBeUndefined();
  });
});
