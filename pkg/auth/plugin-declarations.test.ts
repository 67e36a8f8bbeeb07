import { declarationProblem, labelKeyProblem, type DeclaredObject } from './plugin-declarations';

const role = (name: string, labels: Record<string, string> = { 'svc.run/role-template': 'true' }): DeclaredObject => ({
  apiVersion: 'v1alpha1',
  kind: 'Role',
  metadata: { name, labels },
});
const object = (labels: Record<string, string>): DeclaredObject => ({
  apiVersion: 'people.example.com/v1alpha1',
  kind: 'Contact',
  metadata: { name: 'ada', labels },
});

describe('labelKeyProblem', () => {
  it.each([
    'example.com/team',
    'svc.run/role-template',
    'svc.run/hidden',
    'rbac.authorization.svc.run/aggregate-to-anonymous',
    'rbac.authorization.svc.run/aggregate-to-editor',
    'notsvc.run/x',
    'svc.run.example.com/x',
  ])('allows %s', (key) => {
    expect(labelKeyProblem(key)).toBeUndefined();
  });

  it.each([
    ['team', 'label "team" has no prefix'],
    ['svc.run/owner', 'label "svc.run/owner" is under the platform\'s prefix svc.run'],
    ['plugin.svc.run/plugin-name', 'label "plugin.svc.run/plugin-name" is under the platform\'s prefix plugin.svc.run'],
    ['rbac.authorization.svc.run/display-name', "is under the platform's prefix rbac.authorization.svc.run"],
    ['rbac.authorization.svc.run/aggregate-to', "is under the platform's prefix"],
  ])('refuses %s', (key, message) => {
    expect(labelKeyProblem(key)).toContain(message);
  });
});

describe('declarationProblem', () => {
  it('allows a role template named after the plugin, and any object with allowed labels', () => {
    expect(declarationProblem('people', role('people-editor'))).toBeUndefined();
    expect(
      declarationProblem(
        'people',
        role('people-viewer', {
          'svc.run/role-template': 'true',
          'rbac.authorization.svc.run/aggregate-to-anonymous': 'true',
          'example.com/x': 'y',
        }),
      ),
    ).toBeUndefined();
    expect(declarationProblem('people', object({ 'example.com/team': 'a' }))).toBeUndefined();
    expect(
      declarationProblem('people', { apiVersion: 'v1alpha1', kind: 'Setting', metadata: { name: 'x' } }),
    ).toBeUndefined();
  });

  it('refuses a Role not named "<plugin>-…", one that is not a role template, and any object with a forbidden label', () => {
    expect(declarationProblem('people', role('editor'))).toBe('a plugin\'s Role must be named "people-…"');
    expect(declarationProblem('people', role('peopleeditor'))).toBe('a plugin\'s Role must be named "people-…"');
    expect(declarationProblem('people', role('people-editor', {}))).toContain('must be a role template');
    expect(declarationProblem('people', role('people-editor', { 'svc.run/role-template': 'false' }))).toContain(
      'must be a role template',
    );
    expect(declarationProblem('people', object({ 'svc.run/system': 'true' }))).toContain('"svc.run/system"');
    expect(
      declarationProblem('people', role('people-editor', { 'svc.run/role-template': 'true', tier: 'x' })),
    ).toContain('"tier" has no prefix');
  });
});
