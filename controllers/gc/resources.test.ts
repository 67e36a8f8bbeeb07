import type { ApiObject } from '../../pkg/api/object';
import type { DiscoveredResource } from '../../pkg/client';
import { collectableResources, collectorName, resourceOfModel } from './resources';

const discovered = (
  group: string,
  version: string,
  plural: string,
  extra: Partial<DiscoveredResource> = {},
): DiscoveredResource => ({
  group,
  version,
  plural,
  kind: plural.replace(/s$/, ''),
  singular: '',
  shortNames: [],
  preferred: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  ...extra,
});

describe('collectableResources', () => {
  it('keeps every resource that can be listed, watched and deleted, the core group included', () => {
    const found = collectableResources([
      discovered('', 'v1alpha1', 'roles'),
      discovered('example.com', 'v1alpha1', 'persons'),
    ]);
    expect(found).toEqual([
      { group: '', version: 'v1alpha1', plural: 'roles', kind: 'role' },
      { group: 'example.com', version: 'v1alpha1', plural: 'persons', kind: 'person' },
    ]);
  });

  it.each([
    ['no delete', ['get', 'list', 'watch']],
    ['no watch', ['get', 'list', 'delete']],
    ['no list', ['get', 'watch', 'delete']],
  ])('leaves out a resource with %s', (_what, verbs) => {
    expect(collectableResources([discovered('review.svc.run', 'v1alpha1', 'reviews', { verbs })])).toEqual([]);
  });

  it('takes a resource served in several versions once, in its preferred version', () => {
    const found = collectableResources([
      discovered('example.com', 'v1beta1', 'persons', { preferred: false }),
      discovered('example.com', 'v1', 'persons', { preferred: true }),
      discovered('example.com', 'v1alpha1', 'persons', { preferred: false }),
    ]);
    expect(found).toEqual([{ group: 'example.com', version: 'v1', plural: 'persons', kind: 'person' }]);
  });
});

describe('resourceOfModel', () => {
  const model = (spec: unknown): ApiObject => ({
    apiVersion: 'apiextensions.svc.run/v1alpha1',
    kind: 'Model',
    metadata: { name: 'm' },
    spec,
  });

  it('reads group, version, plural and kind from the spec', () => {
    expect(
      resourceOfModel(
        model({ group: 'example.com', version: 'v1alpha1', names: { kind: 'Person', plural: 'persons' } }),
      ),
    ).toEqual({ group: 'example.com', version: 'v1alpha1', plural: 'persons', kind: 'Person' });
  });

  it.each([
    ['no spec', undefined],
    ['no group', { version: 'v1', names: { plural: 'pets' } }],
    ['no version', { group: 'example.com', names: { plural: 'pets' } }],
    ['no plural', { group: 'example.com', version: 'v1', names: { kind: 'Pet' } }],
  ])('answers undefined for a Model with %s', (_what, spec) => {
    expect(resourceOfModel(model(spec))).toBeUndefined();
  });
});

describe('collectorName', () => {
  it('names the per-resource controller after the resource', () => {
    expect(collectorName({ group: 'example.com', version: 'v1alpha1', plural: 'persons' })).toBe(
      'gc/persons.example.com',
    );
    expect(collectorName({ group: '', version: 'v1alpha1', plural: 'roles' })).toBe('gc/roles');
  });
});
