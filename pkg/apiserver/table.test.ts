import type { Model } from '../registry/model';
import { toTable } from './table';

const model: Model = {
  group: '',
  version: 'v1alpha1',
  kind: 'RoleBinding',
  singular: 'rolebinding',
  plural: 'rolebindings',
  printerColumns: [
    { name: 'Role', type: 'string', jsonPath: '.roleRef.name' },
    { name: 'Users', type: 'string', jsonPath: '.subjects[*].name' },
    { name: 'First', type: 'string', jsonPath: '.subjects[0].name' },
    {
      name: 'Display',
      type: 'string',
      jsonPath: '.metadata.annotations.rbac\\.authorization\\.svc\\.run/display-name',
    },
  ],
};

const binding = (name: string, users: string[], display?: string) => ({
  apiVersion: 'v1alpha1',
  kind: 'RoleBinding',
  metadata: {
    name,
    creationTimestamp: new Date().toISOString(),
    ...(display ? { annotations: { 'rbac.authorization.svc.run/display-name': display } } : {}),
  },
  roleRef: { name: 'editor' },
  subjects: users.map((u) => ({ kind: 'User', name: u })),
});

describe('toTable', () => {
  it('reads printer columns as kubectl does: fields, [n], [*] joined by commas, \\. inside keys', () => {
    const table = toTable(model, [binding('a', ['ada', 'bob'], 'Editors'), binding('b', [])], '7', null) as any;
    expect(table.columnDefinitions.map((c: { name: string }) => c.name)).toEqual([
      'Name',
      'Role',
      'Users',
      'First',
      'Display',
    ]);
    expect(table.rows[0].cells.slice(0, 5)).toEqual(['a', 'editor', 'ada,bob', 'ada', 'Editors']);
    expect(table.rows[1].cells.slice(0, 5)).toEqual(['b', 'editor', null, null, null]);
  });
});
