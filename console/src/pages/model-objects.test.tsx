import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PermissionsContext } from '../permissions/permissions';
import { ModelObjectsPage } from './model-objects';

// The watch is a WebSocket in the browser; here each opened watch is recorded, and the test ends it.
const watches = vi.hoisted(
  () => [] as { path: string; resourceVersion?: string; event: () => void; end: () => void; stopped: boolean }[],
);
vi.mock('../api/watch', () => ({
  openWatch: (path: string, options: { resourceVersion?: string }, onEvent: () => void, onEnd: () => void) => {
    const watch = { path, resourceVersion: options.resourceVersion, event: onEvent, end: onEnd, stopped: false };
    watches.push(watch);
    return () => {
      watch.stopped = true;
    };
  },
}));

const TABLE = {
  columnDefinitions: [
    { name: 'Name', type: 'string' },
    { name: 'Full Name', type: 'string' },
  ],
  rows: [{ cells: ['ada', 'ADA'], object: { metadata: { name: 'ada' } } }],
  metadata: { resourceVersion: '7' },
};

let lists: URL[] = [];

beforeEach(() => {
  lists = [];
  watches.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url.startsWith('/apis/apiextensions.svc.run/v1alpha1/models/persons.example.com'))
        return new Response(JSON.stringify({ spec: { indexes: [{ name: 'spec.name' }, { name: 'spec.tags' }] } }));
      lists.push(new URL(url, 'http://console'));
      // Each read at a later version, so that a test can tell which read a watch started from.
      return new Response(JSON.stringify({ ...TABLE, metadata: { resourceVersion: String(lists.length) } }));
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  render(
    <PermissionsContext.Provider value={{ roles: [], uiPermissions: ['*'] }}>
      <ModelObjectsPage params={{ group: 'example.com', version: 'v1alpha1', plural: 'persons' }} />
    </PermissionsContext.Provider>,
  );
}

const lastList = () => lists[lists.length - 1].searchParams;

describe("a model's objects", () => {
  it('shows applied selectors as chips, and removing one lists again without it', async () => {
    renderPage();
    await screen.findByRole('link', { name: 'ada' });
    fireEvent.input(screen.getByLabelText('Label selector'), { target: { value: 'team=engines,tier in (a,b)' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(lastList().get('labelSelector')).toBe('team=engines,tier in (a,b)'));
    const chips = screen.getByRole('list', { name: 'Applied filters' });
    expect(chips.textContent).toContain('team=engines');
    fireEvent.click(screen.getByRole('button', { name: 'Remove label filter tier in (a,b)' }));
    await waitFor(() => expect(lastList().get('labelSelector')).toBe('team=engines'));
    expect((screen.getByLabelText('Label selector') as HTMLInputElement).value).toBe('team=engines');
  });

  it("sorts by any of the model's indexes, its own and every model's", async () => {
    renderPage();
    await screen.findByRole('option', { name: 'spec.tags ↓' });
    const options = [...(screen.getByLabelText('Sort by') as HTMLSelectElement).options].map((o) => o.value);
    expect(options).toEqual(
      expect.arrayContaining(['', 'metadata.name,asc', 'metadata.creationTimestamp,desc', 'spec.name,asc']),
    );
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'spec.name,desc' } });
    await waitFor(() => expect(lastList().get('sort')).toBe('spec.name,desc'));
  });

  it('reads the page again while changes keep coming, at most every 250 ms, on the one watch it opened', async () => {
    renderPage();
    await waitFor(() => expect(watches).toHaveLength(1));
    const [watch] = watches;
    const before = lists.length;
    // A steady stream (a change every 20 ms for 1.2 s): reads follow it, and do not wait for it to stop.
    const started = Date.now();
    while (Date.now() - started < 1200) {
      watch.event();
      await new Promise((r) => setTimeout(r, 20));
    }
    const reads = lists.length - before;
    expect(reads).toBeGreaterThanOrEqual(3);
    expect(reads).toBeLessThanOrEqual(6);
    expect(watches).toHaveLength(1);
    expect(watch.stopped).toBe(false);
  });

  it('watches again from the new read when the selectors change, not from the read before', async () => {
    renderPage();
    await waitFor(() => expect(watches).toHaveLength(1));
    fireEvent.input(screen.getByLabelText('Label selector'), { target: { value: 'team=engines' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(watches).toHaveLength(2));
    expect(watches[0].stopped).toBe(true);
    const narrowed = lists.findIndex((url) => url.searchParams.get('labelSelector') === 'team=engines');
    expect(watches[1].resourceVersion).toBe(String(narrowed + 1));
  });

  it('says the list is paused when the watch ends, and Resume lists and watches again', async () => {
    renderPage();
    await screen.findByText(/Live:/);
    await waitFor(() => expect(watches).toHaveLength(1));
    watches[0].end();
    await screen.findByText('Paused:');
    const before = lists.length;
    fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    await screen.findByText(/Live:/);
    expect(lists.length).toBeGreaterThan(before);
    expect(watches.length).toBe(2);
  });
});
