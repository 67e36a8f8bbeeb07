import { screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { WHAT_CAN } from '../api/paths';
import { fakeServer, json, renderSignedIn, sent } from '../testing';
import { UserGrants } from './user-grants';

const carolsRules = {
  resourceRules: [
    {
      apiGroups: ['content.svc.run'],
      resources: ['posts'],
      verbs: ['update'],
      where: { fieldSelector: 'spec.owner=carol' },
      via: [{ binding: 'carol-own', role: 'own-post-editor', path: ['own-post-editor'] }],
    },
  ],
  nonResourceRules: [],
  uiPermissions: ['*'],
  incomplete: false,
};

describe("another user's grants", () => {
  it("names the user asked about and reads a condition with that user's name", async () => {
    const calls = fakeServer(() => json({ status: carolsRules }, 201));
    renderSignedIn(<UserGrants user="carol" />, { user: 'admin' });
    const region = screen.getByRole('region', { name: 'What carol can do' });
    await waitFor(() => expect(region.textContent).toContain('update only where spec.owner = carol'));
    expect(calls[0].url).toBe(WHAT_CAN);
    expect(sent(calls[0])).toEqual({ spec: { user: 'carol' } });
    expect(within(region).getByText('All of them (*).')).toBeTruthy();
    // Nothing is held through every signed-in user's roles here: no such section.
    expect(region.querySelector('details')).toBeNull();
  });

  it('reads as one’s own when the user asked about is the one signed in', async () => {
    fakeServer(() => json({ status: carolsRules }, 201));
    renderSignedIn(<UserGrants user="carol" />, { user: 'carol' });
    const region = screen.getByRole('region', { name: 'What you can do' });
    await waitFor(() => expect(region.textContent).toContain('update only where spec.owner = you'));
  });
});
