import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PermissionsContext } from '../permissions/permissions';
import { AccessPage, REVIEW_OTHERS } from './access';

type Call = { method: string; url: string; body?: string };

/** Users `ada` exists; every review is denied. */
function fakeServer() {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ method: init.method ?? 'GET', url, body: init.body as string | undefined });
      if (url === '/api/v1alpha1/users/ada') return new Response(JSON.stringify({ metadata: { name: 'ada' } }));
      if (url.startsWith('/api/v1alpha1/users/')) {
        const status = { kind: 'Status', code: 404, reason: 'NotFound', message: 'not found' };
        return new Response(JSON.stringify(status), { status: 404 });
      }
      return new Response(JSON.stringify({ status: { allowed: false, reason: 'no rule allows it' } }));
    }),
  );
  return calls;
}

const renderAs = (uiPermissions: string[]) =>
  render(
    <PermissionsContext.Provider value={{ roles: [], uiPermissions }}>
      <AccessPage />
    </PermissionsContext.Provider>,
  );

afterEach(() => vi.unstubAllGlobals());

describe('the Access page', () => {
  it('offers the User field only to those who may review others', () => {
    fakeServer();
    renderAs([]);
    expect(screen.queryByLabelText('User')).toBeNull();
    expect(screen.getByLabelText('Resource')).toBeTruthy();
  });

  it('says a user does not exist instead of reading as a denial, and reviews nothing', async () => {
    const calls = fakeServer();
    renderAs([REVIEW_OTHERS]);
    fireEvent.input(screen.getByLabelText('User'), { target: { value: 'ghost' } });
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    expect((await screen.findByRole('alert')).textContent).toContain('there is no user "ghost"');
    expect(screen.getByText('no such user')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Denied' })).toBeNull();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("reviews a user who exists and shows the server's answer", async () => {
    const calls = fakeServer();
    renderAs([REVIEW_OTHERS]);
    fireEvent.input(screen.getByLabelText('User'), { target: { value: 'ada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await screen.findByRole('heading', { name: 'Denied' });
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toContain('"user":"ada"'));
  });
});
