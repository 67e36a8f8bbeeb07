import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { fakeServer, renderSignedIn, status } from '../testing';
import { AccessPage, REVIEW_OTHERS } from './access';

/** The user `ada` exists; every review is denied. */
const accessServer = () =>
  fakeServer(({ url }) => {
    if (url === '/api/v1alpha1/users/ada') return { metadata: { name: 'ada' } };
    if (url.startsWith('/api/v1alpha1/users/')) return status(404, 'NotFound', 'not found');
    return { status: { allowed: false, reason: 'no rule allows it' } };
  });

const renderAs = (uiPermissions: string[]) => renderSignedIn(<AccessPage />, { uiPermissions });

describe('the Access page', () => {
  it('offers the User field only to those who may review others', () => {
    accessServer();
    renderAs([]);
    expect(screen.queryByLabelText('User')).toBeNull();
    expect(screen.getByLabelText('Resource')).toBeTruthy();
    // What they can do, all of it, is theirs to read on Me.
    expect(screen.getByRole('link', { name: 'your own page' }).getAttribute('href')).toMatch(/\/me$/);
  });

  it('says a user does not exist instead of reading as a denial, and reviews nothing', async () => {
    const calls = accessServer();
    renderAs([REVIEW_OTHERS]);
    fireEvent.input(screen.getByLabelText('User'), { target: { value: 'ghost' } });
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    expect((await screen.findByRole('alert')).textContent).toContain('there is no user "ghost"');
    expect(screen.getByText('no such user')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Denied' })).toBeNull();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("reviews a user who exists and shows the server's answer", async () => {
    const calls = accessServer();
    renderAs([REVIEW_OTHERS]);
    fireEvent.input(screen.getByLabelText('User'), { target: { value: 'ada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await screen.findByRole('heading', { name: 'Denied' });
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toContain('"user":"ada"'));
  });
});
