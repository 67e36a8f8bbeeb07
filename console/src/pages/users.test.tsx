import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PermissionsContext } from '../permissions/permissions';
import { UsersPage } from './users';

type Call = { method: string; url: string };

/** Lists no users, creates any, and answers a password with `password` (default 200). */
function fakeServer(password = () => new Response('{}')) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
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
