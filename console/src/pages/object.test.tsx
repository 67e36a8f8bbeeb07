import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PermissionsContext } from '../permissions/permissions';
import { ObjectPage } from './object';

// The YAML editor's CodeMirror is loaded on demand; here its plain text area stands in (as when it cannot load).
vi.mock('../components/codemirror-yaml', () => ({
  mountYamlEditor: () => {
    throw new Error('no CodeMirror in this test');
  },
}));

const PATH = '/apis/example.com/v1alpha1/persons/ada';
const ada = (age: number, version: number) => ({
  apiVersion: 'example.com/v1alpha1',
  kind: 'Person',
  metadata: { name: 'ada', version },
  spec: { age },
});

type Call = { method: string; url: string; body?: string };

/** GET answers each of `reads` in turn (the last one again after); a PUT answers `put`. */
function fakeServer(reads: object[], put: () => Response) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      calls.push({ method, url, body: init.body as string | undefined });
      if (method === 'PUT') return put();
      return new Response(JSON.stringify(reads.length > 1 ? reads.shift() : reads[0]));
    }),
  );
  return calls;
}

function renderPage() {
  return render(
    <PermissionsContext.Provider value={{ roles: [], uiPermissions: ['*'] }}>
      <ObjectPage params={{ group: 'example.com', version: 'v1alpha1', plural: 'persons', name: 'ada' }} />
    </PermissionsContext.Provider>,
  );
}

async function editAge(from: number, to: number) {
  fireEvent.click(await screen.findByRole('button', { name: 'Edit YAML' }));
  const text = screen.getByLabelText('YAML') as HTMLTextAreaElement;
  fireEvent.input(text, { target: { value: text.value.replace(`age: ${from}`, `age: ${to}`) } });
  fireEvent.click(screen.getByRole('button', { name: 'Review changes' }));
}

afterEach(() => vi.unstubAllGlobals());

describe('editing an object as YAML', () => {
  it('shows the changes before saving, and saves on the second Save', async () => {
    const calls = fakeServer([ada(36, 1)], () => new Response(JSON.stringify(ada(37, 2))));
    renderPage();
    await editAge(36, 37);
    const diff = screen.getByLabelText('Your changes');
    expect(diff.textContent).toContain('-   age: 36');
    expect(diff.textContent).toContain('+   age: 37');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toContain('age: 37'));
    expect(calls.find((c) => c.method === 'PUT')?.url).toBe(PATH);
  });

  it('shows what someone else changed meanwhile when the save is refused with 409', async () => {
    const conflict = { kind: 'Status', code: 409, reason: 'Conflict', message: 'the object has been modified' };
    fakeServer([ada(36, 1), ada(40, 2)], () => new Response(JSON.stringify(conflict), { status: 409 }));
    renderPage();
    await editAge(36, 37);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const theirs = await screen.findByLabelText('Their changes');
    expect(theirs.textContent).toContain('-   age: 36');
    expect(theirs.textContent).toContain('+   age: 40');
    expect(theirs.textContent).toContain('-   version: 1');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });
});
