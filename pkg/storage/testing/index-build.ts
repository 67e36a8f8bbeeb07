import { isStorageError } from '../errors';
import type { IndexSpec } from '../indexes';
import type { IndexStatus, Storage } from '../interface';
import type { ListOptions } from '../query';
import { COLOR_INDEX, listNames, setSpec, specOf, TEST_INDEXES, widget, WIDGETS } from './fixtures';
import { DEFAULT_DEADLINE_MS, withDeadline } from './deadline';
import { expectStorageError, expectStorageErrorSync } from './expect-error';
import type { Harness } from './harness';

// Twelve batches of a build: what the tests look at (progress per batch, writes interleaved with batches) depends
// on their number, not their size, and the objects are written once per test in every backend's suite.
const COUNT = 300;
const BATCH = 25;
const GROUP_INDEX = 'spec.group';
const WITH_GROUP: IndexSpec[] = [...TEST_INDEXES, { name: GROUP_INDEX, indexFunc: (o) => specOf(o).group }];
const GROUPS = ['g0', 'g1', 'g2'];
const byName: ListOptions = { sort: [{ index: 'metadata.name', direction: 'asc' }] };
const nameOf = (i: number) => `w${String(i).padStart(4, '0')}`;
const inGroups = (...groups: string[]): ListOptions => ({
  ...byName,
  fieldSelector: [{ field: GROUP_INDEX, op: 'in', values: groups }],
});

/** One onProgress call, with the indexStatus seen during it. */
interface ProgressRecord {
  type: string;
  index: string;
  done: number;
  total: number;
  status: IndexStatus;
}

/** Creates COUNT objects, `w0000`…, in groups g0/g1/g2 by number, 50 at a time. */
async function populate(storage: Storage): Promise<Map<string, string | undefined>> {
  const groups = new Map<string, string | undefined>();
  for (let start = 0; start < COUNT; start += 50) {
    const chunk = Array.from({ length: Math.min(50, COUNT - start) }, (_, k) => start + k);
    await Promise.all(chunk.map((i) => storage.create(WIDGETS, widget(nameOf(i), { group: GROUPS[i % 3] }))));
    for (const i of chunk) groups.set(nameOf(i), GROUPS[i % 3]);
  }
  return groups;
}

/** The names whose group is one of `groups` (undefined: no group), sorted. */
const expectedIn = (model: Map<string, string | undefined>, ...groups: (string | undefined)[]) =>
  [...model]
    .filter(([, g]) => groups.includes(g))
    .map(([name]) => name)
    .sort();

/** A query on an index being built answers correctly or fails with Unavailable; never wrongly. */
async function expectCorrectOrUnavailable(storage: Storage, options: ListOptions, expected: string[]): Promise<void> {
  let names: string[];
  try {
    names = await listNames(storage, WIDGETS, options);
  } catch (err) {
    if (isStorageError(err, 'Unavailable')) return;
    throw err;
  }
  expect(names).toEqual(expected);
}

const ready = (storage: Storage) =>
  withDeadline(storage.whenIndexesReady(WIDGETS), 2 * DEFAULT_DEADLINE_MS, 'the index build');

/** Adding an index to a type that holds objects: batches, progress, status, queries during and after, concurrent writes. */
export function describeIndexBuild(h: Harness): void {
  describe('index build on existing data', () => {
    async function populated() {
      const storage = await h.open({ indexBuildBatch: BATCH });
      await storage.defineType(WIDGETS, TEST_INDEXES);
      return { storage, model: await populate(storage) };
    }

    it('builds in batches, reporting increasing progress up to the total, building then ready', async () => {
      const { storage } = await populated();
      const progress: ProgressRecord[] = [];
      await storage.defineType(WIDGETS, WITH_GROUP, (p) =>
        progress.push({ ...p, status: storage.indexStatus(WIDGETS) }),
      );
      const status = storage.indexStatus(WIDGETS);
      if (!status.ready)
        expect(status.building).toEqual([{ name: GROUP_INDEX, done: expect.any(Number), total: COUNT }]);
      await ready(storage);
      expect(storage.indexStatus(WIDGETS)).toEqual({ ready: true, building: [] });

      const reported = new Set(progress.map((p) => `${p.type} ${p.index} of ${p.total}`));
      expect(reported).toEqual(new Set([`${WIDGETS} ${GROUP_INDEX} of ${COUNT}`]));
      // An initial report of 0 is allowed; after it every report moves by at most one batch.
      const done = progress.map((p) => p.done).filter((d, i) => i > 0 || d > 0);
      const steps = done.map((d, i) => d - (done[i - 1] ?? 0));
      expect(done.at(-1)).toBe(COUNT);
      expect(steps.filter((step) => step <= 0 || step > BATCH)).toEqual([]);
      expect(steps.length).toBeGreaterThanOrEqual(COUNT / BATCH);
      for (const p of progress.filter((r) => r.done < COUNT)) {
        expect(p.status.ready).toBe(false);
        expect(p.status.building.map((b) => [b.name, b.total])).toEqual([[GROUP_INDEX, COUNT]]);
      }
    });

    it('answers queries on the new index correctly or with Unavailable before it is built, correctly after', async () => {
      const { storage, model } = await populated();
      await storage.defineType(WIDGETS, WITH_GROUP);
      await expectCorrectOrUnavailable(storage, inGroups('g1'), expectedIn(model, 'g1'));
      await expectCorrectOrUnavailable(
        storage,
        { sort: [{ index: GROUP_INDEX, direction: 'desc' }], limit: 3 },
        expectedIn(model, 'g2').slice(0, 3),
      );
      // Queries that need no new index are served throughout.
      expect(
        await listNames(storage, WIDGETS, { fieldSelector: [{ field: 'metadata.name', op: 'in', values: ['w0001'] }] }),
      ).toEqual(['w0001']);
      await ready(storage);
      for (const group of GROUPS) {
        const result = await storage.list(WIDGETS, inGroups(group));
        expect({ group, names: result.items.map((o) => o.metadata.name), total: result.total }).toEqual({
          group,
          names: expectedIn(model, group),
          total: COUNT / 3,
        });
      }
      const notG0 = await storage.list(WIDGETS, {
        fieldSelector: [{ field: GROUP_INDEX, op: 'notin', values: ['g0'] }],
      });
      expect(notG0.total).toBe((2 * COUNT) / 3);
      expect(
        await listNames(storage, WIDGETS, { sort: [{ index: GROUP_INDEX, direction: 'desc' }], limit: 3 }),
      ).toEqual(expectedIn(model, 'g2').slice(0, 3));
    });

    it('reflects writes made while the index is being built', async () => {
      const { storage, model } = await populated();
      const writes: (() => Promise<unknown>)[] = [];
      for (let i = 0; i < 60; i++) {
        model.set(nameOf(i), 'moved');
        writes.push(() => storage.update(WIDGETS, nameOf(i), setSpec({ group: 'moved' })));
      }
      for (let i = 100; i < 130; i++) {
        model.delete(nameOf(i));
        writes.push(() => storage.delete(WIDGETS, nameOf(i)));
      }
      for (let i = 0; i < 30; i++) {
        model.set(`n${i}`, 'g1');
        writes.push(() => storage.create(WIDGETS, widget(`n${i}`, { group: 'g1' })));
      }
      model.set(nameOf(200), undefined);
      writes.push(() => storage.update(WIDGETS, nameOf(200), (o) => ({ ...o, spec: { note: 'no group' } })));

      // Each progress report starts a few writes, so that they interleave with the build's batches.
      const inflight: Promise<unknown>[] = [];
      const startWrites = (n: number) => inflight.push(...writes.splice(0, n).map((write) => write()));
      await storage.defineType(WIDGETS, WITH_GROUP, () => startWrites(10));
      startWrites(10);
      await ready(storage);
      startWrites(writes.length);
      await Promise.all(inflight);

      for (const group of [...GROUPS, 'moved']) {
        const result = await storage.list(WIDGETS, inGroups(group));
        expect({ group, names: result.items.map((o) => o.metadata.name), total: result.total }).toEqual({
          group,
          names: expectedIn(model, group),
          total: expectedIn(model, group).length,
        });
      }
      const ungrouped = {
        ...byName,
        fieldSelector: [{ field: GROUP_INDEX, op: 'notin' as const, values: [...GROUPS, 'moved'] }],
      };
      expect(await listNames(storage, WIDGETS, ungrouped)).toEqual([nameOf(200)]);
      expect((await storage.list(WIDGETS)).total).toBe(model.size);
    });

    it('redefining with the same indexes keeps them; dropping one makes it Invalid; adding it back builds it', async () => {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('ada', { color: 'red' }));
      await storage.create(type, widget('grace', { color: 'blue' }));
      const red: ListOptions = { fieldSelector: [{ field: COLOR_INDEX, op: 'in', values: ['red'] }] };
      await storage.defineType(type, TEST_INDEXES);
      expect(storage.indexStatus(type)).toEqual({ ready: true, building: [] });
      expect(await listNames(storage, type, red)).toEqual(['ada']);
      await storage.defineType(
        type,
        TEST_INDEXES.filter((spec) => spec.name !== COLOR_INDEX),
      );
      const err = await expectStorageError(storage.list(type, red), 'Invalid');
      expect(err.message).toContain(COLOR_INDEX);
      await storage.update(type, 'grace', setSpec({ color: 'red' }));
      await storage.defineType(type, TEST_INDEXES);
      await withDeadline(storage.whenIndexesReady(type), DEFAULT_DEADLINE_MS, 'the index build');
      expect(await listNames(storage, type, { ...byName, ...red })).toEqual(['ada', 'grace']);
      expect(
        await listNames(storage, type, { fieldSelector: [{ field: COLOR_INDEX, op: 'in', values: ['blue'] }] }),
      ).toEqual([]);
    });

    it('reports ready for a type with nothing to build, and NotFound for an unknown type', async () => {
      const { storage, type } = await h.widgets();
      expect(storage.indexStatus(type)).toEqual({ ready: true, building: [] });
      await withDeadline(storage.whenIndexesReady(type), DEFAULT_DEADLINE_MS, 'whenIndexesReady');
      expectStorageErrorSync(() => storage.indexStatus('unknown.conformance.svc.run'), 'NotFound');
    });
  });
}
