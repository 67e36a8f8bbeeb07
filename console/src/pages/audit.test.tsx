import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuditPage } from './audit';

const EVENTS = '/apis/audit.svc.run/v1alpha1/events';
const record = (name: string, user: string, decision: 'allow' | 'deny') => ({
  metadata: { name },
  time: '2026-11-28T12:00:00.000Z',
  user,
  verb: 'delete',
  group: 'example.com',
  resource: 'persons',
  name: 'p1',
  path: '/apis/example.com/v1alpha1/persons/p1',
  code: decision === 'deny' ? 403 : 200,
  decision,
  reason: decision === 'deny' ? 'no role of user "dora" allows delete' : 'allowed by RoleBinding "admin"',
});

/** Lists answer from `pages`; a watch streams what `push` sends until `end` is called. */
function fakeServer() {
  const urls: string[] = [];
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(url);
      if (url.includes('watch=true')) {
        const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
        return new Response(body);
      }
      const older = url.includes('continue=');
      const items = older
        ? [record('e0', 'carol', 'allow')]
        : [record('e2', 'dora', 'deny'), record('e1', 'ada', 'allow')];
      return new Response(JSON.stringify({ items, metadata: older ? {} : { continue: 'next' } }));
    }),
  );
  const encode = (text: string) => new TextEncoder().encode(text);
  return {
    urls,
    push: (event: object) => controller?.enqueue(encode(`${JSON.stringify({ type: 'ADDED', object: event })}\n`)),
    end: () => controller?.close(),
    opened: () => controller !== undefined,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('the Audit page', () => {
  it('lists records newest first, pages back, and filters by user, verb, resource, decision and time', async () => {
    const server = fakeServer();
    render(<AuditPage />);
    const table = await screen.findByRole('table', { name: 'Audit records, newest first' });
    expect(table.textContent).toContain('denied (403)');
    expect(table.textContent).toContain('persons.example.com p1');
    fireEvent.click(screen.getByRole('button', { name: 'Older records' }));
    await waitFor(() => expect(screen.getByRole('table').textContent).toContain('carol'));
    expect(screen.queryByRole('button', { name: 'Older records' })).toBeNull();

    fireEvent.input(screen.getByLabelText('User'), { target: { value: 'dora' } });
    fireEvent.change(screen.getByLabelText('Decision'), { target: { value: 'deny' } });
    fireEvent.input(screen.getByLabelText('Since'), { target: { value: '2026-11-28T10:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() =>
      expect(server.urls[server.urls.length - 1]).toContain('user=dora&decision=deny&since=2026-11-28T'),
    );
  });

  it('follows new records live and says "Paused" when the stream ends, then resumes', async () => {
    const server = fakeServer();
    render(<AuditPage />);
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: 'Follow live' }));
    await waitFor(() => expect(server.opened()).toBe(true));
    expect(server.urls.some((u) => u.startsWith(`${EVENTS}?watch=true`))).toBe(true);
    server.push(record('e3', 'erin', 'deny'));
    await waitFor(() => expect(screen.getByRole('table').textContent).toContain('erin'));
    expect(screen.getAllByRole('row')[1].textContent).toContain('erin');
    server.end();
    await screen.findByText('Paused.');
    expect(screen.getByRole('button', { name: 'Resume live tail' })).toBeTruthy();
  });
});
