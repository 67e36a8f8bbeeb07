import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isStorageError } from '../errors';
import type { Storage } from '../interface';
import { TEST_INDEXES, WIDGETS, listNames, setSpec, widget } from '../testing/fixtures';
import { summarize, WatchReader } from '../testing/watch-reader';
import { FileStorage, type FileStorageOptions } from './file-storage';
import { journalPath } from './layout';

let dir: string;
const open: Storage[] = [];

async function reopen(options: FileStorageOptions = {}): Promise<FileStorage> {
  const storage = await FileStorage.open(dir, options);
  open.push(storage);
  await storage.defineType(WIDGETS, TEST_INDEXES);
  return storage;
}

async function closeAll(): Promise<void> {
  await Promise.all(open.splice(0).map((s) => s.close()));
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return isStorageError(err) ? err.code : (err as Error).message;
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-file-storage-'));
});
afterEach(async () => {
  await closeAll();
  rmSync(dir, { recursive: true, force: true });
});

describe('FileStorage across restarts', () => {
  it('keeps every object, its index entries and the revision', async () => {
    const first = await reopen();
    await first.create(WIDGETS, widget('a', { code: 'A', rank: '2' }));
    await first.create(WIDGETS, widget('b', { code: 'B', rank: '1' }));
    await first.update(WIDGETS, 'a', setSpec({ note: 'changed' }));
    await first.create(WIDGETS, widget('c'));
    await first.delete(WIDGETS, 'c');
    await closeAll();

    const second = await reopen();
    expect(second.indexStatus(WIDGETS).ready).toBe(true);
    expect(await listNames(second, WIDGETS, { sort: [{ index: 'spec.rank', direction: 'asc' }] })).toEqual(['b', 'a']);
    expect((await second.get(WIDGETS, 'a')).spec).toMatchObject({ note: 'changed' });
    expect(await second.currentRevision(WIDGETS)).toBe('5');
    expect((await second.create(WIDGETS, widget('d'))).metadata.resourceVersion).toBe('6');
    // The unique index is whole at once: no window in which a duplicate gets in.
    expect(await codeOf(second.create(WIDGETS, widget('e', { code: 'A' })))).toBe('Conflict');
  });

  it('keeps the revision of a type whose objects are all gone, through a snapshot too', async () => {
    const first = await reopen();
    await first.create(WIDGETS, widget('a'));
    await first.delete(WIDGETS, 'a');
    await closeAll();
    expect(await (await reopen()).currentRevision(WIDGETS)).toBe('2');
    await closeAll();
    // Reopening with a journal past the snapshot size snapshots at once; the next reopen starts from it.
    await reopen({ snapshotBytes: 1 });
    await waitForFiles((names) => names.some((n) => n.endsWith('.snap')) && !names.includes('journal-00000001.log'));
    await closeAll();
    expect(await (await reopen()).currentRevision(WIDGETS)).toBe('2');
  });

  it('replays journalled changes to a watch resumed after a restart, and answers Expired before the snapshot', async () => {
    const first = await reopen({ snapshotBytes: 1_000_000 });
    await first.create(WIDGETS, widget('a', { color: 'red' }));
    await first.update(WIDGETS, 'a', setSpec({ color: 'blue' }));
    await first.delete(WIDGETS, 'a');
    await closeAll();

    const second = await reopen();
    const reader = new WatchReader(second.watch(WIDGETS, { fromRevision: '1' }));
    const events = await reader.take(2);
    reader.stop();
    expect(summarize(events)).toEqual([
      ['MODIFIED', 'a', '2'],
      ['DELETED', 'a', '3'],
    ]);
    // What a watch with a field selector needs to send the change as "stopped matching".
    expect(events[0].previousIndexValues?.['spec.color']).toEqual(['red']);
    await closeAll();

    // After a snapshot, the changes before it are gone: resuming from before it is Expired, not a silent gap.
    const third = await reopen({ snapshotBytes: 1 });
    await third.create(WIDGETS, widget('b'));
    await waitForFiles((names) => names.some((n) => n.endsWith('.snap')) && !names.includes('journal-00000001.log'));
    await closeAll();
    const fourth = await reopen();
    const expired = new WatchReader(fourth.watch(WIDGETS, { fromRevision: '1' }));
    const { error } = await expired.readUntilError(10);
    expect(isStorageError(error, 'Expired')).toBe(true);
    const resumed = new WatchReader(fourth.watch(WIDGETS, { fromRevision: '4' }));
    await fourth.create(WIDGETS, widget('c'));
    expect(summarize(await resumed.take(1))).toEqual([['ADDED', 'c', '5']]);
    resumed.stop();
  });

  it('writes snapshots as the journal grows, and reopens from snapshot plus journal', async () => {
    const first = await reopen({ snapshotBytes: 8 * 1024 });
    for (let i = 0; i < 300; i++)
      await first.create(WIDGETS, widget(`w${String(i).padStart(3, '0')}`, { rank: String(i % 7) }));
    for (let i = 0; i < 300; i += 3) await first.delete(WIDGETS, `w${String(i).padStart(3, '0')}`);
    await closeAll();
    expect(readdirSync(dir).filter((n) => n.endsWith('.snap'))).toHaveLength(1);

    const second = await reopen();
    const names = await listNames(second, WIDGETS, { sort: [{ index: 'metadata.name', direction: 'asc' }] });
    expect(names).toHaveLength(200);
    expect(names.includes('w000') || !names.includes('w001')).toBe(false);
    expect(await second.currentRevision(WIDGETS)).toBe('400');
  });

  it('keeps a type that was not used since opening through a snapshot', async () => {
    const first = await reopen();
    await first.create('gadgets.conformance.svc.run', widget('g'));
    await closeAll();
    const second = await reopen({ snapshotBytes: 1 });
    await second.create(WIDGETS, widget('a'));
    await waitForFiles((names) => names.some((n) => n.endsWith('.snap')) && !names.includes('journal-00000001.log'));
    await closeAll();
    const third = await reopen();
    expect(await listNames(third, 'gadgets.conformance.svc.run')).toEqual(['g']);
  });

  it('ignores a torn last record and appends after the whole ones', async () => {
    const first = await reopen();
    await first.create(WIDGETS, widget('a'));
    await first.create(WIDGETS, widget('b'));
    await closeAll();
    appendFileSync(journalPath(dir, 1), Buffer.from([200, 0, 0, 0, 1, 2, 3, 4, 5]));

    const second = await reopen();
    expect(await listNames(second, WIDGETS, { sort: [{ index: 'metadata.name', direction: 'asc' }] })).toEqual([
      'a',
      'b',
    ]);
    await second.create(WIDGETS, widget('c'));
    await closeAll();
    const third = await reopen();
    expect(await third.currentRevision(WIDGETS)).toBe('3');
  });

  it('refuses a journal damaged before its end rather than lose acknowledged writes', async () => {
    const first = await reopen({ snapshotBytes: 1 });
    await first.create(WIDGETS, widget('a'));
    await waitForFiles((names) => names.includes('journal-00000002.log'));
    await closeAll();
    writeFileSync(journalPath(dir, 1), Buffer.from('garbage that is not a record'));
    writeFileSync(journalPath(dir, 2), Buffer.alloc(0));
    rmSync(join(dir, readdirSync(dir).find((n) => n.endsWith('.snap')) ?? 'none'), { force: true });
    await expect(FileStorage.open(dir)).rejects.toThrow(/damaged/);
  });

  it("refuses a directory another live store holds, and takes over a dead process's lock", async () => {
    await reopen();
    await expect(FileStorage.open(dir)).rejects.toThrow(/in use by process/);
    await closeAll();
    writeFileSync(join(dir, 'LOCK'), '999999999\n');
    const again = await reopen();
    expect(await again.ping()).toBe(true);
  });

  it('acknowledges concurrent writes once each is durable, all of them in the journal', async () => {
    const first = await reopen();
    const names = Array.from({ length: 200 }, (_, i) => `c${i}`);
    await Promise.all(names.map((name) => first.create(WIDGETS, widget(name, { code: name }))));
    await closeAll();
    const second = await reopen();
    expect((await second.list(WIDGETS)).total).toBe(200);
    expect(await second.currentRevision(WIDGETS)).toBe('200');
  });
});

/** Waits until the store directory's file names satisfy `done` (a snapshot is written in the background). */
async function waitForFiles(done: (names: string[]) => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done(readdirSync(dir))) {
    if (Date.now() > deadline) throw new Error(`the store's files stayed ${readdirSync(dir).join(', ')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
