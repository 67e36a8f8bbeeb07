import { render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PermissionsContext } from '../permissions/permissions';
import { UserPage } from './user';

/** Answers GET of the user `name` (404 for any other) and the role lists the role form reads. */
function fakeServer(existing: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === `/api/v1alpha1/users/${existing}`)
        return new Response(JSON.stringify({ metadata: { name: existing } }));
      if (url.endsWith('/roles')) return new Response(JSON.stringify({ items: [] }));
      if (url.endsWith(`/users/${existing}/permissions`)) return new Response(JSON.stringify({ roles: [] }));
      const status = { kind: 'Status', code: 404, reason: 'NotFound', message: 'users "ghost" not found' };
      return new Response(JSON.stringify(status), { status: 404 });
    }),
  );
}

const renderAs = (name: string, uiPermissions = ['*']) =>
  render(
    <PermissionsContext.Provider value={{ roles: [], uiPermissions }}>
      <UserPage params={{ name }} />
    </PermissionsContext.Provider>,
  );

afterEach(() => vi.unstubAllGlobals());

describe('a user page', () => {
  it('shows an administrator the management forms of a user who exists', async () => {
    fakeServer('ada');
    renderAs('ada');
    await screen.findByRole('button', { name: 'Disable' });
    expect(screen.getByRole('heading', { name: 'Set a password' })).toBeTruthy();
  });

  it('offers setting a password only with system:users:password, not with system:users:manage alone', async () => {
    fakeServer('ada');
    renderAs('ada', ['system:users:manage']);
    await screen.findByRole('button', { name: 'Disable' });
    expect(screen.queryByRole('heading', { name: 'Set a password' })).toBeNull();
  });

  it('shows only "not found" for a user who does not exist, no management forms', async () => {
    fakeServer('ada');
    renderAs('ghost');
    expect((await screen.findByRole('alert')).textContent).toContain('not found');
    expect(screen.queryByRole('button', { name: 'Disable' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Set a password' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Roles' })).toBeNull();
  });
});
