import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MePage } from './me';

type Call = { method: string; url: string; body?: string };

function fakeServer() {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      calls.push({ method, url, body: init.body as string | undefined });
      if (method === 'POST') {
        const token = { metadata: { name: 't1', annotations: { 'security.svc.run/access-token': 'secret' } } };
        return new Response(JSON.stringify(token), { status: 201 });
      }
      if (url.endsWith('/personalaccesstokens')) return new Response(JSON.stringify({ items: [] }));
      return new Response(JSON.stringify({ metadata: { name: 'ada' }, spec: {} }));
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

const created = async (calls: Call[]) => {
  await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
  return JSON.parse(calls.find((c) => c.method === 'POST')?.body as string) as { spec: { expiresAt?: string } };
};

describe('new tokens on Me', () => {
  it('expire after 30 days unless another lifetime is chosen', async () => {
    const calls = fakeServer();
    render(<MePage />);
    fireEvent.input(await screen.findByLabelText('Token name'), { target: { value: 'ci' } });
    expect((screen.getByLabelText('Expires after') as HTMLSelectElement).value).toBe('30');
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    const { spec } = await created(calls);
    const days = (Date.parse(spec.expiresAt as string) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it('never expire only when "never" is chosen', async () => {
    const calls = fakeServer();
    render(<MePage />);
    fireEvent.input(await screen.findByLabelText('Token name'), { target: { value: 'ci' } });
    fireEvent.change(screen.getByLabelText('Expires after'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect((await created(calls)).spec.expiresAt).toBeUndefined();
  });
});
