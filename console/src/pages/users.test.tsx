import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PermissionsContext } from '../permissions/permissions';
import { SELF_ACCESS_REVIEWS } from '../api/paths';
import { UsersPage } from './users';

type Call = { method: string; url: string };

/**
 * Lists no users, creates any, answers a password with `password` (default 200), and whether the caller may set
 * passwords with `allowed`.
 */
function fakeServer(password = () => new Response('{}'), allowed = true) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      if (url === SELF_ACCESS_REVIEWS) {
        const spec = JSON.parse(String(init.body)).spec.resourceAttributes;
        const asked = spec.verb === 'update' && spec.resource === 'users' && spec.subresource === 'password';
        return new Response(JSON.stringify({ status: { allowed: asked && allowed } }), { status: 201 });
      }
      calls.push({ method, url });
      if (method === 'GET') return new Response(JSON.stringify({ items: [] }));
      if (method === 'PUT') return password();
      return new Response('{}', { status: method === 'POST' ? 201 : 200 });
    }),
  );
  return calls;
}

async function createErin(password: string) {
  render(
    <PermissionsContext.Provider value={{ roles: [], uiPermissions: ['system:users:manage', 'system:users:password'] }}>
      <UsersPage />
    </PermissionsContext.Provider>,
  );
  fireEvent.input(await screen.findByLabelText('Name'), { target: { value: 'erin' } });
  fireEvent.input(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Create user' }));
}

afterEach(() => vi.unstubAllGlobals());

describe('creating a user with a password', () => {
  it('refuses a too short password on its field before creating anything', async () => {
    const calls = fakeServer();
    await createErin('short');
    await screen.findByText('must be 8 to 1024 characters');
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('refuses a password the caller may not set (no update on users/password) before creating anything', async () => {
    const calls = fakeServer(undefined, false);
    await createErin('long-enough-password');
    await screen.findByText(/you may not set passwords/);
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('deletes the user it just created when the server refuses the password', async () => {
    const refused = { kind: 'Status', code: 422, reason: 'Invalid', message: 'password is invalid' };
    const calls = fakeServer(() => new Response(JSON.stringify(refused), { status: 422 }));
    await createErin('long-enough-password');
    await screen.findByText(/password is invalid/);
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([
      { method: 'POST', url: '/api/v1alpha1/users' },
      { method: 'PUT', url: '/api/v1alpha1/users/erin/password' },
      { method: 'DELETE', url: '/api/v1alpha1/users/erin' },
    ]);
  });
});

describe('creating a user without system:users:password', () => {
  it('offers no password field (setting one is for super administrators)', async () => {
    fakeServer();
    render(
      <PermissionsContext.Provider value={{ roles: [], uiPermissions: ['system:users:manage'] }}>
        <UsersPage />
      </PermissionsContext.Provider>,
    );
    await screen.findByLabelText('Name');
    expect(screen.queryByLabelText('Password')).toBeNull();
  });
});
