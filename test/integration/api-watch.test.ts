import { usePersonsApi, person, PERSONS } from '../support/person';
import { httpWatch, wsWatch } from '../support/watch-client';
import { waitFor } from '../support/wait-for';
import { Agent, request } from 'node:http';

/** Bookmarks every 200 ms, so that a test sees several intervals pass in a second. */
const BOOKMARK_INTERVAL_SECONDS = 0.2;
const suite = usePersonsApi({ watchRetention: 50, watchBookmarkIntervalSeconds: BOOKMARK_INTERVAL_SECONDS });
const merge = { 'Content-Type': 'application/merge-patch+json' };
const summary = (events: { type: string; object: any }[]) =>
  events.map((e) => `${e.type} ${e.object.metadata?.name ?? e.object.code}`);

/** One request on `agent` (a keep-alive agent shows whether the connection was reused); the whole body. */
function send(
  agent: Agent,
  method: string,
  path: string,
): Promise<{ status?: number; contentType?: string; body: string; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(`${suite.server.url}${path}`, { method, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (piece: string) => {
        body += piece;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode, contentType: res.headers['content-type'], body, reused: req.reusedSocket }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP watch', () => {
  it('without resourceVersion: ADDED for current objects, then changes in order', async () => {
    await suite.api('POST', PERSONS, person('w-old', {}, { suite: 'w1' }));
    const watch = await httpWatch(`${suite.server.url}${PERSONS}?watch=true&labelSelector=suite%3Dw1`);
    expect(watch.status).toBe(200);
    await watch.events.take(1);
    await suite.api('POST', PERSONS, person('w-new', {}, { suite: 'w1' }));
    await suite.api('PATCH', `${PERSONS}/w-new`, { spec: { age: 5 } }, merge);
    await suite.api('DELETE', `${PERSONS}/w-new`);
    const events = await watch.events.take(4);
    expect(summary(events)).toEqual(['ADDED w-old', 'ADDED w-new', 'MODIFIED w-new', 'MODIFIED w-new']);
    expect(events[3].object.metadata.deletionTimestamp).toBeDefined();
    watch.close();
  });

  it('answers HEAD with the headers alone at once, leaving the connection free for the next request', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const head = await send(agent, 'HEAD', `${PERSONS}?watch=true`);
      expect(head).toMatchObject({ status: 200, contentType: 'application/json', body: '' });
      const next = await send(agent, 'GET', `${PERSONS}?limit=1`);
      expect(next).toMatchObject({ status: 200, reused: true });
      expect(JSON.parse(next.body).kind).toBe('PersonList');
      expect((await send(agent, 'HEAD', `${PERSONS}?watch=true&resourceVersion=abc`)).status).toBe(400);
    } finally {
      agent.destroy();
    }
  });

  it('resumes from a resourceVersion with every later change, none repeated', async () => {
    const created = (await suite.api('POST', PERSONS, person('w-resume', {}, { suite: 'w2' }))).body;
    await suite.api('PATCH', `${PERSONS}/w-resume`, { spec: { age: 1 } }, merge);
    await suite.api('PATCH', `${PERSONS}/w-resume`, { spec: { age: 2 } }, merge);
    const watch = await httpWatch(
      `${suite.server.url}${PERSONS}?watch=1&labelSelector=suite%3Dw2&resourceVersion=${created.metadata.resourceVersion}`,
    );
    const events = await watch.events.take(2);
    expect(events.map((e) => e.object.spec.age)).toEqual([1, 2]);
    await suite.api('PATCH', `${PERSONS}/w-resume`, { spec: { age: 3 } }, merge);
    expect((await watch.events.take(3))[2].object.spec.age).toBe(3);
    expect(watch.events.events).toHaveLength(3);
    watch.close();
  });

  it('sends an object that stops matching as DELETED and one that starts as ADDED', async () => {
    await suite.api('POST', PERSONS, person('w-enter', {}, { suite: 'w3', phase: 'out' }));
    const watch = await httpWatch(`${suite.server.url}${PERSONS}?watch=true&labelSelector=suite%3Dw3,phase%3Din`);
    await suite.api('PATCH', `${PERSONS}/w-enter`, { metadata: { labels: { phase: 'in' } } }, merge);
    await suite.api('PATCH', `${PERSONS}/w-enter`, { spec: { age: 9 } }, merge);
    await suite.api('PATCH', `${PERSONS}/w-enter`, { metadata: { labels: { phase: 'out' } } }, merge);
    expect(summary(await watch.events.take(3))).toEqual(['ADDED w-enter', 'MODIFIED w-enter', 'DELETED w-enter']);
    watch.close();
  });

  it('answers a field selector on something that is not an index with 400 before any stream, as a list does', async () => {
    for (const rv of ['', '&resourceVersion=1']) {
      const res = await suite.api('GET', `${PERSONS}?watch=true&fieldSelector=spec.nope%3Dx${rv}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
      expect(res.body.message).toContain('"spec.nope" is not an index');
    }
    const list = await suite.api('GET', `${PERSONS}?fieldSelector=spec.nope%3Dx`);
    expect(list.status).toBe(400);
  });

  it('watches one object with fieldSelector=metadata.name', async () => {
    await suite.api('POST', PERSONS, person('w-one'));
    await suite.api('POST', PERSONS, person('w-two'));
    const watch = await httpWatch(`${suite.server.url}${PERSONS}?watch=true&fieldSelector=metadata.name%3Dw-two`);
    await suite.api('PATCH', `${PERSONS}/w-one`, { spec: { age: 1 } }, merge);
    await suite.api('PATCH', `${PERSONS}/w-two`, { spec: { age: 2 } }, merge);
    expect(summary(await watch.events.take(2))).toEqual(['ADDED w-two', 'MODIFIED w-two']);
    watch.close();
  });

  it('answers a compacted resourceVersion with 200, an ERROR 410 event, then the end', async () => {
    const first = (await suite.api('POST', PERSONS, person('w-gone'))).body;
    for (let i = 0; i < 60; i++) await suite.api('PATCH', `${PERSONS}/w-gone`, { spec: { age: i } }, merge);
    const watch = await httpWatch(
      `${suite.server.url}${PERSONS}?watch=true&resourceVersion=${first.metadata.resourceVersion}`,
    );
    expect(watch.status).toBe(200);
    const [event] = await watch.events.take(1);
    expect(event.type).toBe('ERROR');
    expect(event.object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
    await watch.events.untilEnded();
  });

  it('ends the stream after timeoutSeconds and sends no bookmark without allowWatchBookmarks, over several intervals', async () => {
    const started = Date.now();
    const watch = await httpWatch(
      `${suite.server.url}${PERSONS}?watch=true&timeoutSeconds=1&fieldSelector=metadata.name%3Dnone`,
    );
    await watch.events.untilEnded(5000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * BOOKMARK_INTERVAL_SECONDS * 1000);
    expect(watch.events.events).toEqual([]);
  });

  it('with allowWatchBookmarks=true sends BOOKMARKs carrying the current resourceVersion, every interval', async () => {
    const current = (await suite.api('GET', PERSONS)).body.metadata.resourceVersion;
    const watch = await httpWatch(
      `${suite.server.url}${PERSONS}?watch=true&allowWatchBookmarks=true&fieldSelector=metadata.name%3Dnone`,
    );
    const bookmarks = () => watch.events.events.filter((e) => e.type === 'BOOKMARK');
    await waitFor(() => bookmarks().length >= 3, { timeoutMs: 5000, what: 'three BOOKMARK events' });
    watch.close();
    expect(bookmarks()[0].object).toEqual({
      apiVersion: 'example.com/v1alpha1',
      kind: 'Person',
      metadata: { resourceVersion: current },
    });
  });

  it('refuses a resourceVersion that is not one the server issued (400)', async () => {
    const res = await suite.api('GET', `${PERSONS}?watch=true&resourceVersion=abc`);
    expect(res.status).toBe(400);
  });
});

describe('WebSocket watch', () => {
  it('streams the same events on the collection path', async () => {
    const watch = await wsWatch(`${suite.server.url}${PERSONS}?labelSelector=suite%3Dws1`);
    await suite.api('POST', PERSONS, person('ws-a', {}, { suite: 'ws1' }));
    await suite.api('PATCH', `${PERSONS}/ws-a`, { spec: { age: 1 } }, merge);
    expect(summary(await watch.events.take(2))).toEqual(['ADDED ws-a', 'MODIFIED ws-a']);
    watch.close();
  });

  it('on an object path watches that object only', async () => {
    await suite.api('POST', PERSONS, person('ws-b'));
    await suite.api('POST', PERSONS, person('ws-c'));
    const watch = await wsWatch(`${suite.server.url}${PERSONS}/ws-b`);
    await suite.api('PATCH', `${PERSONS}/ws-c`, { spec: { age: 1 } }, merge);
    await suite.api('PATCH', `${PERSONS}/ws-b`, { spec: { age: 2 } }, merge);
    expect(summary(await watch.events.take(2))).toEqual(['ADDED ws-b', 'MODIFIED ws-b']);
    watch.close();
  });

  it('refuses an upgrade on an unknown resource with the HTTP status', async () => {
    await expect(wsWatch(`${suite.server.url}/apis/example.com/v1alpha1/ghosts`)).rejects.toMatchObject({
      status: 404,
    });
  });
});

it('sends each event as a one-row Table when the watch asks for Tables (kubectl get -w)', async () => {
  await suite.api('POST', PERSONS, person('tw-ada', { age: 41 }));
  const watch = await httpWatch(`${suite.server.url}${PERSONS}?watch=true&fieldSelector=metadata.name%3Dtw-ada`, {
    Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
  });
  try {
    const [added] = await watch.events.take(1);
    expect(added.type).toBe('ADDED');
    expect(added.object.kind).toBe('Table');
    const names = added.object.columnDefinitions.map((c: { name: string }) => c.name);
    expect(names[0]).toBe('Name');
    expect(added.object.rows).toHaveLength(1);
    expect(added.object.rows[0].cells[0]).toBe('tw-ada');
    await suite.api(
      'PATCH',
      `${PERSONS}/tw-ada`,
      { spec: { age: 42 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    const [, modified] = await watch.events.take(2);
    expect(modified.type).toBe('MODIFIED');
    expect(modified.object.kind).toBe('Table');
    expect(modified.object.rows[0].cells).toContain(42);
  } finally {
    watch.close();
  }
  // A plain watch of the same events still gets the objects.
  const plain = await httpWatch(`${suite.server.url}${PERSONS}?watch=true&fieldSelector=metadata.name%3Dtw-ada`);
  try {
    expect((await plain.events.take(1))[0].object.kind).toBe('Person');
  } finally {
    plain.close();
  }
});
