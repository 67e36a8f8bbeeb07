import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WhoCanPanel } from './who-can';

const WHO_CAN = '/apis/authorization.svc.run/v1alpha1/resourceaccessreviews';
const user = (name: string) => ({ name, via: [{ binding: `${name}-b`, role: 'editor', path: ['editor', 'base'] }] });

/** Two pages of users (a, b then c), and everyone through `authenticated` when asked about `delete`. */
function fakeServer() {
  const specs: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url !== WHO_CAN) return new Response('{}', { status: 404 });
      const spec = JSON.parse(init.body as string).spec;
      specs.push(spec);
      const page = spec.continue
        ? { users: [user('c')], continue: '' }
        : { users: [user('a'), user('b')], continue: 'after-b' };
      return new Response(
        JSON.stringify({ status: { anonymous: false, authenticated: spec.verb === 'delete', total: 3, ...page } }),
      );
    }),
  );
  return specs;
}

afterEach(() => vi.unstubAllGlobals());

describe('the who-can panel', () => {
  it('pages through the users, each with the path that grants it', async () => {
    const specs = fakeServer();
    render(<WhoCanPanel request={{ group: 'example.com', resource: 'persons', name: 'p1' }} />);
    await screen.findByText('3 users can get it.');
    expect(screen.getByText('binding a-b → editor → base')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'More users' }));
    await screen.findByRole('link', { name: 'c' });
    expect(screen.queryByRole('button', { name: 'More users' })).toBeNull();
    expect(specs[1]).toEqual({
      group: 'example.com',
      resource: 'persons',
      name: 'p1',
      verb: 'get',
      limit: 20,
      continue: 'after-b',
    });
  });

  it('asks again for another verb, and says when every logged-in user can', async () => {
    const specs = fakeServer();
    render(<WhoCanPanel request={{ group: '', resource: 'users', name: 'ada' }} />);
    await screen.findByText('3 users can get it.');
    fireEvent.change(screen.getByLabelText('Verb'), { target: { value: 'delete' } });
    await screen.findByText('Every logged-in user can delete it.');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'c' })).toBeNull());
    expect(specs.map((s) => s.verb)).toEqual(['get', 'delete']);
  });
});
