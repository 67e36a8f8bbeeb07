import { describe, expect, it } from 'vitest';
import { buildingBlocks, draftOf, resultingGrants, roleFromDraft } from './compose';
import type { Role, Rule } from './roles';

const A = 'rbac.authorization.svc.run/';
const read: Rule = { apiGroups: [''], resources: ['roles'], verbs: ['get', 'list'] };
const write: Rule = { apiGroups: [''], resources: ['roles'], verbs: ['create', 'update'] };

const roles: Role[] = [
  {
    metadata: { name: 'roles-view', annotations: { [`${A}module`]: 'Console', [`${A}ui-permissions`]: '["r:view"]' } },
    rules: [read],
  },
  {
    metadata: {
      name: 'roles-manage',
      annotations: {
        [`${A}module`]: 'Console',
        [`${A}dependencies`]: '["roles-view"]',
        [`${A}ui-permissions`]: '["r:manage"]',
      },
    },
    rules: [write],
    // The controller's view wins over the role's own rules: it includes what is aggregated into it.
    status: { rules: [write, read, { verbs: ['get'], nonResourceURLs: ['/extra'] }], uiPermissions: ['r:manage'] },
  },
  { metadata: { name: 'super-role' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] },
  { metadata: { name: 'anonymous', labels: { 'svc.run/hidden': 'true' } }, rules: [] },
];

describe('buildingBlocks', () => {
  it('offers every visible role but super-role and the role being edited, grouped by module', () => {
    const names = (editing?: string) =>
      buildingBlocks(roles, editing).flatMap((g) => g.roles.map((r) => r.metadata.name));
    expect(names()).toEqual(['roles-manage', 'roles-view']);
    expect(names('roles-view')).toEqual(['roles-manage']);
  });
});

describe('resultingGrants', () => {
  it("adds up the chosen roles' effective rules and those of the roles they include, each once", () => {
    const result = resultingGrants(['roles-manage'], roles);
    expect(result.rules).toEqual([write, read, { verbs: ['get'], nonResourceURLs: ['/extra'] }]);
    expect(result.uiPermissions).toEqual(['r:manage', 'r:view']);
  });

  it("keeps an existing role's own rules and UI permissions", () => {
    const own: Role = {
      metadata: { name: 'mine', annotations: { [`${A}ui-permissions`]: '["own:x"]' } },
      rules: [{ verbs: ['get'], nonResourceURLs: ['/mine'] }],
    };
    const result = resultingGrants(['roles-view'], roles, own);
    expect(result.rules).toEqual([{ verbs: ['get'], nonResourceURLs: ['/mine'] }, read]);
    expect(result.uiPermissions).toEqual(['own:x', 'r:view']);
  });

  it('grants nothing for nothing chosen, and ignores a role that no longer exists', () => {
    expect(resultingGrants([], roles)).toEqual({ rules: [], uiPermissions: [] });
    expect(resultingGrants(['gone'], roles)).toEqual({ rules: [], uiPermissions: [] });
  });
});

describe('roleFromDraft', () => {
  it('makes a new role of its name, display name and dependencies, with no rules of its own', () => {
    const role = roleFromDraft({
      name: 'editor',
      displayName: ' Editor ',
      module: 'News',
      chosen: ['roles-manage'],
      rules: [],
      kept: [],
    });
    expect(role).toEqual({
      metadata: {
        name: 'editor',
        annotations: {
          [`${A}display-name`]: 'Editor',
          [`${A}module`]: 'News',
          [`${A}dependencies`]: '["roles-manage"]',
        },
      },
      rules: [],
    });
  });

  it("changes an existing role's display name, module and dependencies only, keeping its version and dropping its status", () => {
    const base = {
      metadata: {
        name: 'editor',
        version: 7,
        labels: { team: 'news' },
        annotations: {
          [`${A}display-name`]: 'Old',
          [`${A}module`]: 'News',
          [`${A}dependencies`]: '["roles-view"]',
          note: 'kept',
        },
      },
      rules: [read],
      status: { rules: [read] },
    } as Role;
    const draft = { ...draftOf(base), displayName: '', module: '', chosen: [] };
    expect(draftOf(base)).toEqual({
      name: 'editor',
      displayName: 'Old',
      module: 'News',
      chosen: ['roles-view'],
      rules: [{ apiGroups: 'core', resources: 'roles', verbs: 'get, list', fieldSelector: '', labelSelector: '' }],
      kept: [],
    });
    expect(roleFromDraft({ ...draft, name: 'renamed' }, base)).toEqual({
      metadata: { name: 'editor', version: 7, labels: { team: 'news' }, annotations: { note: 'kept' } },
      rules: [read],
    });
  });
  it('writes conditions from the rule fields, and keeps the rules the editor does not edit', () => {
    const path = { nonResourceURLs: ['/metrics'], verbs: ['get'] };
    const role = roleFromDraft({
      name: 'own-posts',
      displayName: '',
      module: '',
      chosen: [],
      kept: [path],
      rules: [
        {
          apiGroups: 'content.svc.run',
          resources: 'posts',
          verbs: 'get, update,update',
          fieldSelector: ' spec.owner=${user.name} ',
          labelSelector: '',
        },
        { apiGroups: '', resources: 'users', verbs: 'get', fieldSelector: '', labelSelector: '' },
      ],
    });
    expect(role.rules).toEqual([
      path,
      {
        apiGroups: ['content.svc.run'],
        resources: ['posts'],
        verbs: ['get', 'update'],
        where: { fieldSelector: 'spec.owner=${user.name}' },
      },
      { apiGroups: [''], resources: ['users'], verbs: ['get'] },
    ]);
  });
});
