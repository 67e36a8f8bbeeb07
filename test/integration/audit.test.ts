import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import WebSocket from 'ws';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { person, PERSONS } from '../support/person';
import { bearer, createRole, createToken, createUser, bind, useRbacApi } from '../support/security';
import { waitFor } from '../support/wait-for';
import { TEST_ADMIN_PASSWORD } from '../support/apiserver';

// Audit: one record per write, refusal and review, with the decision's reason; in the store and a JSON-lines file.
const dir = mkdtempSync(join(tmpdir(), 'svc-audit-'));
const logPath = join(dir, 'audit.log');
const suite = useRbacApi({ auditLogPath: logPath });
const EVENTS = '/apis/audit.svc.run/v1alpha1/events';
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Event {
  user: string;
  verb: string;
  resource: string;
  name: string;
  code: number;
  decision: string;
  reason: string;
  authenticatedBy: string;
  tokenName?: string;
  requestId: string;
}

async function eventsOf(query: string): Promise<Event[]> {
  const res = await suite.admin('GET', `${EVENTS}?${query}`);
  expect(res.status).toBe(200);
  return res.body.items as Event[];
}

describe('audit', () => {
  it('records an allowed write and a refused one, each with its reason, newest first, filtered by user', async () => {
    await createRole(suite, 'person-writer', [
      { verbs: ['create'], apiGroups: ['example.com'], resources: ['persons'] },
    ]);
    const ada = await createUser(suite, 'ada');
    await bind(suite, 'ada', 'person-writer');
    expect((await ada('POST', PERSONS, person('p1'))).status).toBe(201);
    expect((await ada('DELETE', `${PERSONS}/p1`)).status).toBe(403);
    const events = await waitFor(
      async () => {
        const found = await eventsOf('user=ada');
        return found.length >= 2 ? found : undefined;
      },
      { what: 'audit records' },
    );
    expect(events.slice(0, 2)).toEqual([
      expect.objectContaining({ verb: 'delete', name: 'p1', code: 403, decision: 'deny', authenticatedBy: 'password' }),
      expect.objectContaining({
        verb: 'create',
        resource: 'persons',
        code: 201,
        decision: 'allow',
        reason: 'allowed by RoleBinding "ada-person-writer" to Role "person-writer"',
      }),
    ]);
    expect(events[0].reason).toMatch(/no role of user "ada" allows delete/);
    expect((await eventsOf('user=ada&decision=deny')).map((e) => e.verb)).toEqual(['delete']);
    expect(await eventsOf(`user=ada&since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual(
      [],
    );
  });

  it('names the token a token-authenticated request used, and none for a password login', async () => {
    const dee = await createUser(suite, 'dee');
    const { token, name } = await createToken(dee);
    expect((await suite.as(bearer(token))('DELETE', `${PERSONS}/p1`)).status).toBe(403);
    expect((await dee('DELETE', `${PERSONS}/p2`)).status).toBe(403);
    const refused = await waitFor(
      async () => {
        const found = await eventsOf('user=dee&verb=delete');
        return found.length >= 2 ? found : undefined;
      },
      { what: "dee's audit records" },
    );
    const byName = Object.fromEntries(refused.map((e) => [e.name, e]));
    expect(byName.p1).toMatchObject({ authenticatedBy: 'token', tokenName: name });
    expect(byName.p2.authenticatedBy).toBe('password');
    expect(byName.p2.tokenName).toBeUndefined();
  });

  it('pages the records by limit and continue, newest first, each once, whichever batches hold them', async () => {
    const eve = await createUser(suite, 'eve');
    for (let i = 0; i < 5; i++) expect((await eve('DELETE', `${PERSONS}/e${i}`)).status).toBe(403);
    const all = await waitFor(
      async () => {
        const found = await eventsOf('user=eve&verb=delete');
        return found.length >= 5 ? found : undefined;
      },
      { what: "eve's audit records" },
    );
    expect(all.map((e) => e.name)).toEqual(['e4', 'e3', 'e2', 'e1', 'e0']);
    const paged: string[] = [];
    let token = '';
    for (let pages = 0; pages < 10; pages++) {
      const res = await suite.admin('GET', `${EVENTS}?user=eve&verb=delete&limit=2${token && `&continue=${token}`}`);
      expect(res.status).toBe(200);
      paged.push(...(res.body.items as Event[]).map((e) => e.name));
      token = res.body.metadata.continue ?? '';
      if (!token) break;
    }
    expect(paged).toEqual(['e4', 'e3', 'e2', 'e1', 'e0']);
    expect((await suite.admin('GET', `${EVENTS}?continue=nonsense`)).status).toBe(400);
  });

  it('records an anonymous refusal, and no allowed read at the default level', async () => {
    expect((await suite.anonymous('GET', PERSONS)).status).toBe(401);
    expect((await suite.admin('GET', PERSONS)).status).toBe(200);
    const refused = await waitFor(
      async () => {
        const found = await eventsOf('user=anonymous');
        return found.length > 0 ? found : undefined;
      },
      { what: 'audit records' },
    );
    expect(refused[0]).toMatchObject({ code: 401, decision: 'deny', authenticatedBy: 'anonymous' });
    expect(await eventsOf('user=admin&verb=list')).toEqual([]);
  });

  it('writes the same records as JSON lines to --audit-log-path', async () => {
    const lines = await waitFor(
      () => {
        const text = readFileSync(logPath, 'utf8');
        return text.includes('"verb":"delete"') ? text.trim().split('\n') : undefined;
      },
      { what: 'audit records' },
    );
    const parsed = lines.map((line) => JSON.parse(line) as Event);
    expect(parsed).toContainEqual(expect.objectContaining({ user: 'ada', verb: 'delete', decision: 'deny' }));
  });

  it('is readable by the super administrator only, unless a role grants it; counts drops in /metrics', async () => {
    const bob = await createUser(suite, 'bob');
    expect((await bob('GET', EVENTS)).status).toBe(403);
    const metrics = await suite.admin('GET', '/metrics');
    expect(metrics.text).toContain('svc_audit_dropped_total');
    expect((await suite.admin('GET', `${EVENTS}?since=yesterday`)).status).toBe(400);
  });

  it('streams new records that match a watch', async () => {
    const controller = new AbortController();
    const res = await fetch(`${suite.server.url}${EVENTS}?watch=true&user=cy`, {
      headers: { Authorization: `Basic ${Buffer.from(`admin:${TEST_ADMIN_PASSWORD}`).toString('base64')}` },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const cy = await createUser(suite, 'cy');
    expect((await cy('DELETE', `${PERSONS}/p1`)).status).toBe(403);
    let text = '';
    while (!text.includes('\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('utf8');
    }
    controller.abort();
    const event = JSON.parse(text.split('\n')[0]) as { type: string; object: Event };
    expect(event).toMatchObject({ type: 'ADDED', object: { user: 'cy', verb: 'delete', decision: 'deny' } });
  });

  it('records a refused WebSocket watch too', async () => {
    const url = `${suite.server.url.replace(/^http/, 'ws')}${PERSONS}?watch=true`;
    const code = await new Promise<number>((resolve) => {
      const ws = new WebSocket(url);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => undefined);
    });
    expect(code).toBe(401);
    const refused = await waitFor(
      async () => {
        const found = (await eventsOf('user=anonymous&verb=watch')).filter((e) => e.code === 401);
        return found.length > 0 ? found : undefined;
      },
      { what: 'the refused watch record' },
    );
    expect(refused[0]).toMatchObject({ resource: 'persons', decision: 'deny', authenticatedBy: 'anonymous' });
  });
});
