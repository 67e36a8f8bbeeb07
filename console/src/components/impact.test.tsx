import { render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PermissionsContext } from '../permissions/permissions';
import { ImpactPanel } from './impact';

const IMPACT = '/apis/authorization.svc.run/v1alpha1/accessimpactreviews';
const posts = { apiGroups: ['content.svc.run'], resources: ['posts'], verbs: ['delete'] };

function fakeServer(status: object) {
  const bodies: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url !== IMPACT) return new Response('{}', { status: 404 });
      bodies.push(JSON.parse(init.body as string));
      return new Response(JSON.stringify({ status }));
    }),
  );
  return bodies;
}

const change = { operation: 'update' as const, userPermissions: { user: 'carol', roles: ['post-author'] } };
const renderAs = (uiPermissions: string[]) =>
  render(
    <PermissionsContext.Provider value={{ roles: [], uiPermissions }}>
      <ImpactPanel change={change} />
    </PermissionsContext.Provider>,
  );

afterEach(() => vi.unstubAllGlobals());

describe('the impact of a change, before saving', () => {
  it('sends the proposed change and lists who gains and loses which rules and UI permissions', async () => {
    const bodies = fakeServer({
      usersAffected: 1,
      changes: [
        {
          user: 'carol',
          gained: [{ ...posts, where: { fieldSelector: 'spec.owner=carol' } }],
          lost: [],
          uiPermissionsGained: ['uc:posts:publish'],
          uiPermissionsLost: [],
        },
      ],
      anonymousGained: [],
      anonymousLost: [],
    });
    renderAs(['system:access:view']);
    const region = await screen.findByRole('region', { name: 'Impact of this change' });
    await screen.findByText('1 user would change.');
    expect(region.textContent).toContain('delete posts (content.svc.run) where spec.owner = carol');
    expect(region.textContent).toContain('UI permissions: uc:posts:publish');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(bodies[0]).toEqual({ spec: { ...change, limit: 50 } });
  });

  it('warns loudly when anyone, even without logging in, would gain something', async () => {
    fakeServer({ usersAffected: 0, changes: [], anonymousGained: [posts], anonymousLost: [] });
    renderAs(['*']);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Anyone, even without logging in, would gain:');
    expect(alert.textContent).toContain('delete posts (content.svc.run)');
  });

  it('asks nothing without the UI permission for access insight', async () => {
    const bodies = fakeServer({});
    renderAs(['system:roles:manage']);
    await screen.findByText(/shown to those who may see who can do what/);
    expect(bodies).toEqual([]);
  });
});
