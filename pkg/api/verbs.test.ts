import { RESOURCE_VERBS } from './verbs';

describe('RESOURCE_VERBS', () => {
  it('holds the eight Kubernetes resource verbs once each', () => {
    expect([...RESOURCE_VERBS].sort()).toEqual([
      'create',
      'delete',
      'deletecollection',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ]);
    expect(new Set(RESOURCE_VERBS).size).toBe(RESOURCE_VERBS.length);
  });
});
