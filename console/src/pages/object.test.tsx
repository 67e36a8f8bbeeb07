import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer, renderSignedIn, sent, status, type Answer } from '../testing';
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

const ACCESS_REVIEWS = '/apis/authorization.svc.run/v1alpha1/accessreviews';
const WHO_CAN = '/apis/authorization.svc.run/v1alpha1/resourceaccessreviews';
const DENIED_DELETE = {
  allowed: false,
  reason: 'no role of user "dora" allows delete persons.example.com "ada"',
  trace: [
    {
      kind: 'Rule',
      name: 'get, update persons.example.com',
      message: 'in Role "editor": verb delete is not get, update',
    },
  ],
};

/**
 * GET answers each of `reads` in turn (the last one again after); a PUT answers `put`. Access reviews allow
 * everything but `denied`; who-can names ada, and bob only on his own objects.
 */
function objectServer(reads: object[], put: () => Answer, denied: string[] = []) {
  return fakeServer((call) => {
    if (call.method === 'PUT') return put();
    if (call.url === ACCESS_REVIEWS) {
      const verb = sent<{ spec: { verb: string } }>(call).spec.verb;
      return { status: denied.includes(verb) ? DENIED_DELETE : { allowed: true } };
    }
    if (call.url === WHO_CAN) {
      const users = [
        { name: 'ada', via: [{ binding: 'ada-admin', role: 'admin', path: ['admin', 'models-manage'] }] },
        {
          name: 'bob',
          via: [{ binding: 'bob-x', role: 'x', path: ['x'] }],
          conditions: [{ fieldSelector: 'spec.owner=bob' }],
        },
      ];
      return { status: { anonymous: false, authenticated: false, users, total: 2, continue: '' } };
    }
    return reads.length > 1 ? (reads.shift() as object) : reads[0];
  });
}

const PARAMS = { group: 'example.com', version: 'v1alpha1', plural: 'persons', name: 'ada' };
const renderPage = (uiPermissions = ['*']) => renderSignedIn(<ObjectPage params={PARAMS} />, { uiPermissions });

async function editAge(from: number, to: number) {
  fireEvent.click(await screen.findByRole('button', { name: 'Edit YAML' }));
  const text = screen.getByLabelText('YAML') as HTMLTextAreaElement;
  fireEvent.input(text, { target: { value: text.value.replace(`age: ${from}`, `age: ${to}`) } });
  fireEvent.click(screen.getByRole('button', { name: 'Review changes' }));
}

describe('editing an object as YAML', () => {
  it('shows the changes before saving, and saves on the second Save', async () => {
    const calls = objectServer([ada(36, 1)], () => ada(37, 2));
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
    objectServer([ada(36, 1), ada(40, 2)], () => status(409, 'Conflict', 'the object has been modified'));
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

describe('the actions on an object and who can take them', () => {
  it('disables an action the caller may not take, with a "Why?" that gives the nearest miss in words', async () => {
    objectServer([ada(36, 1)], () => ({}), ['delete']);
    renderPage();
    const remove = await screen.findByRole('button', { name: 'Delete' });
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Edit YAML' }) as HTMLButtonElement).disabled).toBe(false),
    );
    expect((remove as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: "Why can't I delete it?" }));
    const why = screen.getByRole('note', { name: 'Why you cannot delete it' });
    expect(why.textContent).toContain('No role of user "dora" allows delete');
    expect(why.textContent).toContain('Closest rule: get, update persons.example.com — in Role "editor": verb delete');
  });

  it('disables editing without the UI permission that offers it, and says which one', async () => {
    objectServer([ada(36, 1)], () => ({}));
    renderPage(['system:models:view']);
    fireEvent.click((await screen.findAllByRole('button', { name: "Why can't I edit it?" }))[0]);
    expect((screen.getByRole('button', { name: 'Edit YAML' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getAllByRole('note', { name: 'Why you cannot edit it' })[0].textContent).toContain(
      'system:models:manage',
    );
  });

  it('lists who can, with the path that grants it and a conditional holder’s condition', async () => {
    objectServer([ada(36, 1)], () => ({}));
    renderPage();
    const panel = await screen.findByRole('region', { name: 'Who can' });
    await waitFor(() => expect(panel.textContent).toContain('2 users can get it.'));
    expect(panel.textContent).toContain('binding ada-admin → admin → models-manage');
    expect(panel.textContent).toContain('bob only where spec.owner = bob');
  });

  it('shows no who-can panel without the UI permission for it', async () => {
    objectServer([ada(36, 1)], () => ({}));
    renderPage(['system:models:view']);
    await screen.findByRole('button', { name: 'Delete' });
    expect(screen.queryByRole('region', { name: 'Who can' })).toBeNull();
  });
});
