import { aggregationTargetsOf, annotationArrayError, dependenciesOf, uiPermissionsOf, type Role } from './types';

function role(annotations: Record<string, string> = {}, labels: Record<string, string> = {}): Role {
  return { apiVersion: 'v1alpha1', kind: 'Role', metadata: { name: 'r', annotations, labels } };
}

describe('role annotations', () => {
  it('reads the dependencies and ui-permissions arrays', () => {
    const r = role({
      'rbac.authorization.svc.run/dependencies': '["a","b"]',
      'rbac.authorization.svc.run/ui-permissions': '["system:posts:view"]',
    });
    expect(dependenciesOf(r)).toEqual(['a', 'b']);
    expect(uiPermissionsOf(r)).toEqual(['system:posts:view']);
  });
  it('treats absent and invalid annotations as empty', () => {
    expect(dependenciesOf(role())).toEqual([]);
    expect(dependenciesOf(role({ 'rbac.authorization.svc.run/dependencies': '["a", 1]' }))).toEqual([]);
    expect(uiPermissionsOf(role({ 'rbac.authorization.svc.run/ui-permissions': 'nope' }))).toEqual([]);
  });
  it.each([
    ['[]', undefined],
    ['["a"]', undefined],
    ['{"a":1}', 'must be a JSON array of strings, not object'],
    ['null', 'must be a JSON array of strings, not null'],
    ['"a"', 'must be a JSON array of strings, not string'],
    ['["a", 1]', 'must be a JSON array of strings: element 1 is a number'],
    ['["a", null]', 'must be a JSON array of strings: element 1 is null'],
  ])('annotationArrayError(%s)', (value, error) => {
    expect(annotationArrayError(value)).toBe(error);
  });
  it('reports unparsable JSON', () => {
    expect(annotationArrayError('[a')).toMatch(/^must be a JSON array of strings: /);
  });
});

describe('aggregationTargetsOf', () => {
  it('lists targets of aggregate-to labels set to "true", sorted', () => {
    expect(
      aggregationTargetsOf(
        role(
          {},
          {
            'rbac.authorization.svc.run/aggregate-to-editor': 'true',
            'rbac.authorization.svc.run/aggregate-to-anonymous': 'true',
            'rbac.authorization.svc.run/aggregate-to-viewer': 'false',
            'rbac.authorization.svc.run/aggregate-to-': 'true',
            'other/aggregate-to-x': 'true',
          },
        ),
      ),
    ).toEqual(['anonymous', 'editor']);
  });
});
