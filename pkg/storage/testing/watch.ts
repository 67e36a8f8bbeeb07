import type { ApiObject } from '../../api/object';
import { isStorageError } from '../errors';
import type { Storage } from '../interface';
import type { WatchEvent } from '../watch';
import { GADGETS, setSpec, TEST_INDEXES, widget, WIDGETS } from './fixtures';
import type { Harness } from './harness';
import { expectNoEventsBefore, summarize, type EventSummary, type WatchConsumption } from './watch-reader';

const added = (o: ApiObject): EventSummary => ['ADDED', o.metadata.name, o.metadata.resourceVersion];
const modified = (o: ApiObject): EventSummary => ['MODIFIED', o.metadata.name, o.metadata.resourceVersion];
const deleted = (o: ApiObject): EventSummary => ['DELETED', o.metadata.name, o.metadata.resourceVersion];

/** Four changes (create, update, create, delete) and their expected events. */
async function fourChanges(storage: Storage, type: string) {
  const ada = await storage.create(type, widget('ada', { note: 'a' }));
  const adaChanged = await storage.update(type, 'ada', setSpec({ note: 'b' }));
  const grace = await storage.create(type, widget('grace'));
  const adaGone = await storage.delete(type, 'ada');
  return { ada, events: [added(ada), modified(adaChanged), added(grace), deleted(adaGone)] };
}

/** Creates one object and writes `count` updates to it, returning every revision from the create on. */
async function manyChanges(storage: Storage, type: string, count: number): Promise<string[]> {
  const revisions = [(await storage.create(type, widget('busy', { counter: 0 }))).metadata.resourceVersion ?? ''];
  for (let i = 1; i <= count; i++) {
    revisions.push((await storage.update(type, 'busy', setSpec({ counter: i }))).metadata.resourceVersion ?? '');
  }
  return revisions;
}

/**
 * Watch: live changes, event content and order, resume from a revision,
 * Expired, slow watchers, stop; each case consumed by iteration and again
 * through `listen`, which must behave the same.
 */
export function describeWatch(h: Harness): void {
  describeWatchConsumedBy(h, 'iterate');
  describeWatchConsumedBy(h, 'listen');
}

function describeWatchConsumedBy(base: Harness, consumption: WatchConsumption): void {
  const h: Harness = { ...base, watch: (storage, type, from) => base.watch(storage, type, from, consumption) };
  describe(`watch (${consumption})`, () => {
    it('without a revision delivers only the changes made after the call', async () => {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('before'));
      const reader = h.watch(storage, type);
      const after = await storage.create(type, widget('after'));
      expect(summarize(await reader.take(1))).toEqual([added(after)]);
    });

    it('delivers ADDED, MODIFIED and DELETED in order, each carrying its revision; DELETED the last state', async () => {
      const { storage, type } = await h.widgets();
      const reader = h.watch(storage, type);
      const { ada, events } = await fourChanges(storage, type);
      const received = await reader.take(4);
      expect(summarize(received)).toEqual(events);
      expect(received[0].object).toEqual(ada);
      expect(received[1].object.spec).toEqual({ note: 'b' });
      expect(received[3].object).toMatchObject({ spec: { note: 'b' }, metadata: { uid: ada.metadata.uid } });
    });

    it('from a revision replays exactly the later changes in order, then the live ones', async () => {
      const { storage, type } = await h.widgets();
      const { ada, events } = await fourChanges(storage, type);
      const reader = h.watch(storage, type, ada.metadata.resourceVersion);
      expect(summarize(await reader.take(3))).toEqual(events.slice(1));
      const live = await storage.create(type, widget('linus'));
      expect(summarize(await reader.take(1))).toEqual([added(live)]);
      await expectNoEventsBefore(reader, () => storage.create(type, widget('marker')));
    });

    it('resumes from any revision without loss or duplicates; from 0 replays everything', async () => {
      const { storage, type } = await h.widgets();
      const { events } = await fourChanges(storage, type);
      for (let from = 0; from < events.length; from++) {
        const reader = h.watch(storage, type, String(from));
        expect({ from, events: summarize(await reader.take(events.length - from)) }).toEqual({
          from,
          events: events.slice(from),
        });
      }
      const current = h.watch(storage, type, await storage.currentRevision(type));
      await expectNoEventsBefore(current, () => storage.create(type, widget('marker')));
    });

    it('from a revision older than the retained changes fails with Expired', async () => {
      const retention = h.options.watchRetention;
      const storage = await h.open({ watchRetention: retention });
      await storage.defineType(WIDGETS, TEST_INDEXES);
      const revisions = await manyChanges(storage, WIDGETS, 20 * retention);
      const { events, error } = await h.watch(storage, WIDGETS, revisions[0]).readUntilError(0);
      expect(events).toEqual([]);
      expect(isStorageError(error, 'Expired')).toBe(true);
      // The newest `retention` changes stay replayable.
      const oldestKept = revisions.length - 1 - retention;
      const recent = await h.watch(storage, WIDGETS, revisions[oldestKept]).take(retention);
      expect(recent.map((e) => e.object.metadata.resourceVersion)).toEqual(revisions.slice(oldestKept + 1));
    });

    // Only an iterating watcher can fall behind: a listener takes every batch as it comes.
    if (consumption === 'iterate') {
      it('ends a watcher that never reads with Expired, and leaves the others alone', async () => {
        const buffer = 5;
        const storage = await h.open({ watchBuffer: buffer });
        await storage.defineType(WIDGETS, TEST_INDEXES);
        const slow = h.watch(storage, WIDGETS);
        const fast = h.watch(storage, WIDGETS);
        const delivered: WatchEvent[] = [];
        await storage.create(WIDGETS, widget('busy', { counter: 0 }));
        delivered.push(...(await fast.take(1)));
        for (let i = 1; i <= 10 * buffer; i++) {
          await storage.update(WIDGETS, 'busy', setSpec({ counter: i }));
          delivered.push(...(await fast.take(1)));
        }
        const { events, error } = await slow.readUntilError(buffer);
        expect(isStorageError(error, 'Expired')).toBe(true);
        expect(summarize(events)).toEqual(summarize(delivered.slice(0, events.length)));
        const next = await storage.update(WIDGETS, 'busy', setSpec({ counter: -1 }));
        expect(summarize(await fast.take(1))).toEqual([modified(next)]);
        const late = h.watch(storage, WIDGETS);
        const created = await storage.create(WIDGETS, widget('late'));
        expect(summarize(await late.take(1))).toEqual([added(created)]);
      });
    } else {
      it('hands a listener more than watchBuffer events without ending it', async () => {
        const buffer = 5;
        const storage = await h.open({ watchBuffer: buffer });
        await storage.defineType(WIDGETS, TEST_INDEXES);
        const revisions = await manyChanges(storage, WIDGETS, 10 * buffer);
        const replay = h.watch(storage, WIDGETS, revisions[0]);
        const replayed = await replay.take(revisions.length - 1);
        expect(replayed.map((e) => e.object.metadata.resourceVersion)).toEqual(revisions.slice(1));
        await expectNoEventsBefore(replay, () => storage.create(WIDGETS, widget('marker')));
      });
    }

    it('two watchers of a type receive the same events', async () => {
      const { storage, type } = await h.widgets();
      const first = h.watch(storage, type);
      const second = h.watch(storage, type);
      const { events } = await fourChanges(storage, type);
      expect(summarize(await first.take(4))).toEqual(events);
      expect(summarize(await second.take(4))).toEqual(events);
    });

    it('watches of different types are independent, each type counting its own revisions', async () => {
      const { storage, type } = await h.widgets();
      await storage.defineType(GADGETS, TEST_INDEXES);
      const widgets = h.watch(storage, type);
      const gadgets = h.watch(storage, GADGETS);
      const aWidget = await storage.create(type, widget('w'));
      const aGadget = await storage.create(GADGETS, { ...widget('g'), kind: 'Gadget' });
      expect([aWidget.metadata.resourceVersion, aGadget.metadata.resourceVersion]).toEqual(['1', '1']);
      expect(summarize(await gadgets.take(1))).toEqual([added(aGadget)]);
      expect(summarize(await widgets.take(1))).toEqual([added(aWidget)]);
      await expectNoEventsBefore(widgets, () => storage.create(type, widget('marker')));
      await expectNoEventsBefore(gadgets, () => storage.create(GADGETS, { ...widget('marker'), kind: 'Gadget' }));
    });

    it('stop() ends the iteration, also a pending read, and may be called twice', async () => {
      const { storage, type } = await h.widgets();
      const reader = h.watch(storage, type);
      const ended = reader.expectEnd();
      reader.stop();
      await ended;
      reader.stop();
      await storage.create(type, widget('after-stop'));
      await reader.expectEnd();
    });

    it('close() ends every watch', async () => {
      const { storage, type } = await h.widgets();
      const reader = h.watch(storage, type);
      const ended = reader.expectEnd();
      await h.close(storage);
      await ended;
    });
  });
}
