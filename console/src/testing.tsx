import { render } from '@testing-library/preact';
import type { ComponentChild } from 'preact';
import { vi } from 'vitest';
import { saveSession } from './api/session';
import { PermissionsContext } from './permissions/permissions';

// Helpers for the component tests: a fake server behind `fetch`, and rendering as a signed-in user.
// `test-setup.ts` restores `fetch` and forgets the session after each test.

/** A request the page made: its method, URL and body as sent. */
export interface Call {
  method: string;
  url: string;
  body?: string;
}

/** What a fake server answers: a Response as it is, anything else as its JSON with 200. */
export type Answer = Response | object;

/** A JSON answer with a status other than 200. */
export const json = (body: unknown, status: number) => new Response(JSON.stringify(body), { status });

/** A Status answer (`404 NotFound`, `409 Conflict`…) as the apiserver sends it. */
export const status = (code: number, reason: string, message: string) =>
  json({ kind: 'Status', code, reason, message }, code);

/** A `422 Invalid` Status with a cause per field, as the apiserver refuses an object it validates. */
export const invalid = (message: string, causes: { field: string; message: string }[]) =>
  json(
    {
      kind: 'Status',
      code: 422,
      reason: 'Invalid',
      message,
      details: { causes: causes.map((c) => ({ reason: 'FieldValueInvalid', ...c })) },
    },
    422,
  );

/** Stands in for the server: every `fetch` is answered by `answer` and recorded in the list returned. */
export function fakeServer(answer: (call: Call, init: RequestInit) => Answer | Promise<Answer>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { method: init.method ?? 'GET', url, body: init.body as string | undefined };
      calls.push(call);
      const answered = await answer(call, init);
      return answered instanceof Response ? answered : new Response(JSON.stringify(answered));
    }),
  );
  return calls;
}

/** The JSON body a call sent. */
export const sent = <T = Record<string, unknown>,>(call: Call | undefined): T => JSON.parse(call?.body ?? 'null') as T;

/**
 * Renders `ui` as the signed-in user `user` (the session names them, as after a login) whose roles carry
 * `uiPermissions`.
 */
export function renderSignedIn(ui: ComponentChild, options: { user?: string; uiPermissions?: string[] } = {}) {
  saveSession({ token: 'test-token', username: options.user ?? 'ada' });
  return render(
    <PermissionsContext.Provider value={{ roles: [], uiPermissions: options.uiPermissions ?? [] }}>
      {ui}
    </PermissionsContext.Provider>,
  );
}
