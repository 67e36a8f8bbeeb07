import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { WhatCanAnswer } from '../api/insight';
import { WHAT_CAN } from '../api/paths';
import { fakeServer, json, renderSignedIn, sent, type Call } from '../testing';
import { MePage } from './me';

/** What every signed-in user holds: no binding of their own. */
const EVERYONES = {
  nonResourceURLs: ['/healthz'],
  verbs: ['get'],
  via: [{ role: 'anonymous', path: ['anonymous'] }],
};

const OWN_POSTS: WhatCanAnswer = {
  resourceRules: [
    {
      apiGroups: ['content.svc.run'],
      resources: ['posts'],
      verbs: ['update', 'delete'],
      where: { fieldSelector: 'spec.owner=ada' },
      via: [{ binding: 'ada-author', role: 'post-author', path: ['post-author', 'post-contributor'] }],
    },
    {
      apiGroups: ['content.svc.run'],
      resources: ['posts', 'categories'],
      verbs: ['get', 'list'],
      via: [{ binding: 'ada-author', role: 'post-author', path: ['post-author', 'post-contributor'] }],
    },
  ],
  nonResourceRules: [EVERYONES],
  uiPermissions: ['uc:posts:contribute', 'uc:posts:publish'],
};

const NOTHING: WhatCanAnswer = { resourceRules: [], nonResourceRules: [EVERYONES], uiPermissions: [] };

/** The user ada, with no tokens, holding `rules`; a token POST answers 201 with its secret. */
function meServer(rules: WhatCanAnswer = NOTHING): Call[] {
  return fakeServer(({ method, url }) => {
    if (url === WHAT_CAN) return json({ status: { ...rules, incomplete: false } }, 201);
    if (method === 'POST') {
      return json({ metadata: { name: 't1', annotations: { 'security.svc.run/access-token': 'secret' } } }, 201);
    }
    if (url.endsWith('/personalaccesstokens')) return { items: [] };
    return { metadata: { name: 'ada' }, spec: {} };
  });
}

const grants = () => screen.findByRole('region', { name: 'What you can do' });

describe('"What you can do" on Me', () => {
  it('asks about the caller (no user named, which needs no right) and reads conditions as about "you"', async () => {
    const calls = meServer(OWN_POSTS);
    renderSignedIn(<MePage />, { user: 'ada' });
    const region = await grants();
    await waitFor(() => expect(region.textContent).toContain('only where spec.owner = you'));
    expect(sent(calls.find((c) => c.url === WHAT_CAN))).toEqual({ spec: {} });
    const posts = within(region).getByText('posts (content.svc.run)');
    expect(posts.tagName).toBe('DT');
    expect(region.textContent).toContain('update, delete only where spec.owner = you');
    expect(region.textContent).toContain('through post-author → post-contributor (binding ada-author)');
    // A rule on two resources is listed under each of them.
    expect(within(region).getByText('categories (content.svc.run)')).toBeTruthy();
    expect(within(region).getByText('uc:posts:publish')).toBeTruthy();
  });

  it('says a user with no role has no access beyond signing in, and keeps what everyone holds apart', async () => {
    meServer(NOTHING);
    renderSignedIn(<MePage />, { user: 'ada' });
    const region = await grants();
    await within(region).findByText(/You hold no role that grants rules: no access beyond signing in\./);
    const everyones = within(region).getByText(/What every signed-in user may do \(1 rule\)/);
    expect(everyones.closest('details')?.textContent).toContain('get /healthz');
    expect(everyones.closest('details')?.textContent).toContain('everyone, even without signing in');
  });

  it('shows the error when the review fails, and the rest of the page still works', async () => {
    fakeServer(({ url }) => {
      if (url === WHAT_CAN) return json({ kind: 'Status', code: 500, reason: 'InternalError', message: 'boom' }, 500);
      if (url.endsWith('/personalaccesstokens')) return { items: [] };
      return { metadata: { name: 'ada' }, spec: {} };
    });
    renderSignedIn(<MePage />, { user: 'ada' });
    const region = await grants();
    await waitFor(() => expect(within(region).getByRole('alert').textContent).toContain('boom'));
    expect(screen.getByRole('button', { name: 'Create token' })).toBeTruthy();
  });
});

const created = async (calls: Call[]) => {
  const isToken = (c: Call) => c.method === 'POST' && c.url.endsWith('/personalaccesstokens');
  await waitFor(() => expect(calls.some(isToken)).toBe(true));
  return sent<{ spec: { expiresAt?: string } }>(calls.find(isToken));
};

describe('new tokens on Me', () => {
  it('expire after 30 days unless another lifetime is chosen', async () => {
    const calls = meServer();
    renderSignedIn(<MePage />);
    fireEvent.input(await screen.findByLabelText('Token name'), { target: { value: 'ci' } });
    expect((screen.getByLabelText('Expires after') as HTMLSelectElement).value).toBe('30');
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    const { spec } = await created(calls);
    const days = (Date.parse(spec.expiresAt as string) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it('never expire only when "never" is chosen', async () => {
    const calls = meServer();
    renderSignedIn(<MePage />);
    fireEvent.input(await screen.findByLabelText('Token name'), { target: { value: 'ci' } });
    fireEvent.change(screen.getByLabelText('Expires after'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect((await created(calls)).spec.expiresAt).toBeUndefined();
  });
});
