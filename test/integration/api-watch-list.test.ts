import { usePersonsApi, person, PERSONS } from '../support/person';
import { httpWatch } from '../support/watch-client';
import { waitFor } from '../support/wait-for';

// Streaming lists (Kubernetes' WatchList, what client-go ≥ 1.35 asks first): the current objects as ADDED
// events, a BOOKMARK annotated k8s.io/initial-events-end carrying the list's resourceVersion, then changes.
// Bookmarks every 200 ms: a watch's first periodic BOOKMARK shows that it has started.
const suite = usePersonsApi({ watchBookmarkIntervalSeconds: 0.2 });
const STREAM = 'watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';
const merge = { 'Content-Type': 'application/merge-patch+json' };
/** The events but periodic BOOKMARKs, as `TYPE name`. */
const summary = (events: { type: string; object: any }[]) =>
  events
    .filter((e) => e.type !== 'BOOKMARK' || e.object.metadata.annotations)
    .map((e) => `${e.type} ${e.object.metadata?.name ?? e.object.rows?.[0]?.cells?.[0] ?? ''}`);

it('streams the matching objects, then the end BOOKMARK at the list revision, then live changes', async () => {
  await suite.api('POST', PERSONS, person('wl-a', {}, { suite: 'wl1' }));
  await suite.api('POST', PERSONS, person('wl-b', {}, { suite: 'wl1' }));
  await suite.api('POST', PERSONS, person('wl-other', {}, { suite: 'elsewhere' }));
  const listed = (await suite.api('GET', `${PERSONS}?labelSelector=suite%3Dwl1`)).body.metadata.resourceVersion;
  const watch = await httpWatch(`${suite.server.url}${PERSONS}?${STREAM}&labelSelector=suite%3Dwl1`);
  try {
    expect(watch.status).toBe(200);
    const initial = await watch.events.take(3);
    expect(summary(initial).slice(0, 2).sort()).toEqual(['ADDED wl-a', 'ADDED wl-b']);
    expect(initial[2]).toEqual({
      type: 'BOOKMARK',
      object: {
        apiVersion: 'example.com/v1alpha1',
        kind: 'Person',
        metadata: { resourceVersion: listed, annotations: { 'k8s.io/initial-events-end': 'true' } },
      },
    });
    await suite.api('PATCH', `${PERSONS}/wl-a`, { spec: { age: 3 } }, merge);
    await suite.api('PATCH', `${PERSONS}/wl-other`, { spec: { age: 3 } }, merge);
    await suite.api('POST', PERSONS, person('wl-c', {}, { suite: 'wl1' }));
    await waitFor(() => summary(watch.events.events).length >= 5, { what: 'two live events' });
    expect(summary(watch.events.events).slice(3)).toEqual(['MODIFIED wl-a', 'ADDED wl-c']);
  } finally {
    watch.close();
  }
});

it('with a resourceVersion sends a state at least that new, and refuses one the server has not reached', async () => {
  const created = (await suite.api('POST', PERSONS, person('wl-rv', {}, { suite: 'wl2' }))).body;
  const rv = created.metadata.resourceVersion as string;
  const watch = await httpWatch(
    `${suite.server.url}${PERSONS}?${STREAM}&labelSelector=suite%3Dwl2&resourceVersion=${rv}`,
  );
  try {
    const [added, end] = await watch.events.take(2);
    expect(added).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'wl-rv', resourceVersion: rv } } });
    expect(Number(end.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(rv));
  } finally {
    watch.close();
  }
  const future = await httpWatch(`${suite.server.url}${PERSONS}?${STREAM}&resourceVersion=${Number(rv) + 1000}`);
  const [error] = await future.events.take(1);
  expect(error).toMatchObject({ type: 'ERROR', object: { code: 504, reason: 'Timeout' } });
  expect(error.object.message).toContain('Too large resource version');
  await future.events.untilEnded();
});

it('refuses a plain watch from a revision the server has not reached, at once, as Kubernetes refuses it', async () => {
  const created = (await suite.api('POST', PERSONS, person('wl-future', {}, { suite: 'wl-future' }))).body;
  const future = await httpWatch(
    `${suite.server.url}${PERSONS}?watch=true&resourceVersion=${Number(created.metadata.resourceVersion) + 1000}`,
  );
  const [error] = await future.events.take(1);
  expect(error).toMatchObject({
    type: 'ERROR',
    object: { code: 504, reason: 'Timeout', details: { causes: [{ reason: 'ResourceVersionTooLarge' }] } },
  });
  await future.events.untilEnded();
  const current = await httpWatch(
    `${suite.server.url}${PERSONS}?watch=true&labelSelector=suite%3Dwl-future&resourceVersion=${created.metadata.resourceVersion}`,
  );
  try {
    await suite.api(
      'PATCH',
      `${PERSONS}/wl-future`,
      { spec: { age: 9 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    const [changed] = await current.events.take(1);
    expect(changed).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'wl-future' } } });
  } finally {
    current.close();
  }
});

it('with sendInitialEvents=false sends no initial events, only what changes after', async () => {
  await suite.api('POST', PERSONS, person('wl-quiet', {}, { suite: 'wl3' }));
  const watch = await httpWatch(
    `${suite.server.url}${PERSONS}?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&labelSelector=suite%3Dwl3`,
  );
  try {
    // A periodic BOOKMARK comes once the watch follows storage: a change after it must be seen.
    const [bookmark] = await watch.events.take(1);
    expect(bookmark.type).toBe('BOOKMARK');
    await suite.api('PATCH', `${PERSONS}/wl-quiet`, { spec: { age: 9 } }, merge);
    await waitFor(() => summary(watch.events.events).length >= 1, { what: 'the change' });
    expect(summary(watch.events.events)).toEqual(['MODIFIED wl-quiet']);
  } finally {
    watch.close();
  }
});

it('streams one-row Tables when asked for Tables, then the same end BOOKMARK', async () => {
  await suite.api('POST', PERSONS, person('wl-table', { name: 'Table Person', age: 30 }, { suite: 'wl4' }));
  const watch = await httpWatch(`${suite.server.url}${PERSONS}?${STREAM}&labelSelector=suite%3Dwl4`, {
    Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
  });
  try {
    const [added, end] = await watch.events.take(2);
    expect(added.object.kind).toBe('Table');
    expect(added.object.rows[0].cells.slice(0, 3)).toEqual(['wl-table', 'Table Person', 30]);
    expect(end.type).toBe('BOOKMARK');
    expect(end.object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
  } finally {
    watch.close();
  }
});

it.each([
  [
    'without allowWatchBookmarks',
    'watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan',
    422,
    'allowWatchBookmarks: sendInitialEvents requires allowWatchBookmarks=true',
  ],
  [
    'without resourceVersionMatch',
    'watch=1&sendInitialEvents=true&allowWatchBookmarks=true',
    422,
    'resourceVersionMatch: sendInitialEvents requires resourceVersionMatch=NotOlderThan',
  ],
  [
    'resourceVersionMatch alone on a watch',
    'watch=1&resourceVersionMatch=NotOlderThan&resourceVersion=1',
    422,
    'forbidden for watch unless sendInitialEvents is provided',
  ],
  [
    'sendInitialEvents on a list',
    'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=1',
    400,
    'is forbidden for list',
  ],
])('refuses a streaming list %s, saying why', async (_what, query, code, message) => {
  const res = await suite.api('GET', `${PERSONS}?${query}`);
  expect(res.status).toBe(code);
  expect(res.body).toMatchObject({ kind: 'Status', code });
  expect(res.body.message).toContain(message);
});
