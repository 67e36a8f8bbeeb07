import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { Role } from '../roles/roles';
import { fakeServer, invalid, json, status, type Answer, type Call } from '../testing';
import { EditRolePage, NewRolePage } from './role-editor';

const A = 'rbac.authorization.svc.run/';
const template = (name: string, display: string, extra: Record<string, string> = {}, hidden = false): Role => ({
  metadata: {
    name,
    labels: { 'svc.run/role-template': 'true', ...(hidden ? { 'svc.run/hidden': 'true' } : {}) },
    annotations: { [`${A}module`]: 'Console', [`${A}display-name`]: display, ...extra },
  },
  rules: [{ apiGroups: [''], resources: [name], verbs: ['get'] }],
});

const ROLES: Role[] = [
  template('users-view', 'View users', { [`${A}ui-permissions`]: '["system:users:view"]' }),
  template('users-manage', 'Manage users', {
    [`${A}dependencies`]: '["users-view"]',
    [`${A}ui-permissions`]: '["system:users:manage"]',
  }),
  template('secret-template', 'Hidden one', {}, true),
  { metadata: { name: 'super-role', annotations: { [`${A}display-name`]: 'Super administrator' } } },
];

/** Reads ROLES (each at version 3; 404 for any other), and answers every write with `write` (default 201 `{}`). */
const rolesServer = (write: () => Answer = () => json({}, 201)) =>
  fakeServer(({ method, url }) => {
    if (method !== 'GET') return write();
    if (url === '/api/v1alpha1/roles') return { items: ROLES };
    const role = ROLES.find((r) => url === `/api/v1alpha1/roles/${r.metadata.name}`);
    return role ? { ...role, metadata: { ...role.metadata, version: 3 } } : status(404, 'NotFound', 'gone');
  });

describe('the role editor', () => {
  it('offers visible templates by display name, locks dependencies and shows what the role will grant', async () => {
    rolesServer();
    render(<NewRolePage />);
    const manage = await screen.findByRole('checkbox', { name: 'Manage users' });
    expect(screen.queryByRole('checkbox', { name: 'Hidden one' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Super administrator' })).toBeNull();
    expect(screen.getByRole('group', { name: 'Console' })).toBeTruthy();
    fireEvent.click(manage);
    const view = screen.getByRole('checkbox', { name: 'View users' }) as HTMLInputElement;
    await waitFor(() => expect(view.checked).toBe(true));
    expect(view.disabled).toBe(true);
    expect(screen.getByText(/included through users-manage/)).toBeTruthy();
    const preview = screen.getByRole('region', { name: 'What this role will grant' });
    expect(preview.textContent).toContain('system:users:manage, system:users:view');
    expect(preview.textContent).toContain('users-view');
  });

  it('creates the role with its display name and the chosen templates as dependencies', async () => {
    const calls = rolesServer();
    render(<NewRolePage />);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Manage users' }));
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'user-admin' } });
    fireEvent.input(screen.getByLabelText('Display name'), { target: { value: 'User administrator' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create role' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST') as Call;
    expect(post.url).toBe('/api/v1alpha1/roles');
    expect(JSON.parse(post.body as string)).toEqual({
      metadata: {
        name: 'user-admin',
        annotations: { [`${A}display-name`]: 'User administrator', [`${A}dependencies`]: '["users-manage"]' },
      },
      rules: [],
    });
  });

  it('edits a role as read (its version goes back) and offers a reload when someone changed it meanwhile', async () => {
    const calls = rolesServer(() => status(409, 'Conflict', 'the object has been modified'));
    render(<EditRolePage params={{ name: 'users-manage' }} />);
    const view = (await screen.findByRole('checkbox', { name: 'View users' })) as HTMLInputElement;
    expect(view.checked).toBe(true);
    expect(screen.queryByRole('checkbox', { name: 'Manage users' })).toBeNull();
    expect(screen.queryByLabelText('Name')).toBeNull();
    fireEvent.click(view);
    fireEvent.click(screen.getByRole('button', { name: 'Save role' }));
    await screen.findByText(/Changed meanwhile/);
    const put = calls.find((c) => c.method === 'PUT') as Call;
    expect(put.url).toBe('/api/v1alpha1/roles/users-manage');
    const sent = JSON.parse(put.body as string) as Role & { metadata: { version: number } };
    expect(sent.metadata.version).toBe(3);
    expect(sent.metadata.annotations?.[`${A}dependencies`]).toBeUndefined();
    expect(sent.rules).toEqual(ROLES[1].rules);
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });

  it('says so when the role does not exist', async () => {
    rolesServer();
    render(<EditRolePage params={{ name: 'nope' }} />);
    expect((await screen.findByRole('alert')).textContent).toContain('gone');
    expect(screen.queryByRole('button', { name: 'Save role' })).toBeNull();
  });

  it('gives a rule a condition with ${user.name} offered, and shows the server refusing it under that field', async () => {
    const notIndexed = 'fieldSelector: "spec.title" is not an index of posts';
    const calls = rolesServer(() =>
      invalid(`Role "own-posts" is invalid: rules[0].where: ${notIndexed}`, [
        { field: 'rules[0].where', message: notIndexed },
      ]),
    );
    render(<NewRolePage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add a rule' }));
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'own-posts' } });
    fireEvent.input(screen.getByLabelText('API groups'), { target: { value: 'content.svc.run' } });
    fireEvent.input(screen.getByLabelText('Resources'), { target: { value: 'posts' } });
    fireEvent.input(screen.getByLabelText('Verbs'), { target: { value: 'get, update' } });
    fireEvent.click(screen.getByRole('button', { name: /Insert \$\{user\.name\} in rule 1/ }));
    expect((screen.getByLabelText('Only where fields match') as HTMLInputElement).value).toBe(
      'spec.owner=${user.name}',
    );
    const preview = screen.getByRole('region', { name: 'What this role will grant' });
    expect(preview.textContent).toContain('spec.owner = the caller');
    fireEvent.click(screen.getByRole('button', { name: 'Create role' }));
    const message = await screen.findByText('fieldSelector: "spec.title" is not an index of posts');
    expect(message.id).toBe('field-rules[0].where-error');
    expect(JSON.parse(calls.find((c) => c.method === 'POST')?.body as string).rules).toEqual([
      {
        apiGroups: ['content.svc.run'],
        resources: ['posts'],
        verbs: ['get', 'update'],
        where: { fieldSelector: 'spec.owner=${user.name}' },
      },
    ]);
  });
});
