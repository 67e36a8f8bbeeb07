import pino from 'pino';
import type { ApiObject } from '../api/object';
import { Informer } from './informer';
import { onEvent, type ObjectEvent } from './event-handler';
import { FakeListerWatcher, thing } from './testing/fake-source';
import { waitFor } from '../../test/support/wait-for';

const log = pino({ level: 'silent' });

function startWith(source: FakeListerWatcher, resyncPeriodMs?: number) {
  const informer = new Informer(source, { name: 'things', log, resyncPeriodMs });
  const events: ObjectEvent[] = [];
  informer.addEventHandler(onEvent((e) => events.push(e)));
  informer.start();
  return { informer, events };
}

describe('Informer: watch events and resync (in-memory source)', () => {
  it('moves its resourceVersion with every event and bookmark, without reporting bookmarks', async () => {
    const source = new FakeListerWatcher([thing('a', '5')], '5');
    const { informer, events } = startWith(source);
    await informer.waitForSync();
    await waitFor(() => source.watching, { what: 'the watch' });
    source.emit({ type: 'BOOKMARK', object: { apiVersion: 'v1', kind: 'Thing', metadata: { resourceVersion: '9' } } });
    await waitFor(() => informer.resourceVersion === '9', { what: 'the bookmark revision' });
    source.emit({ type: 'MODIFIED', object: thing('a', '10') });
    await waitFor(() => informer.resourceVersion === '10', { what: 'the event revision' });
    expect(events.map((e) => e.type)).toEqual(['add', 'update']);
    await informer.stop();
  });

  it('reports a MODIFIED of an unknown object as an add, and ignores a DELETED of one it never had', async () => {
    const source = new FakeListerWatcher<ApiObject>([], '1');
    const { informer, events } = startWith(source);
    await informer.waitForSync();
    await waitFor(() => source.watching, { what: 'the watch' });
    source.emit({ type: 'DELETED', object: thing('ghost', '2') });
    source.emit({ type: 'MODIFIED', object: thing('b', '3') });
    await waitFor(() => events.length === 1, { what: 'the add' });
    expect(events[0]).toMatchObject({ type: 'add', object: { metadata: { name: 'b' } } });
    await informer.stop();
  });

  it('does not resync unless asked', async () => {
    jest.useFakeTimers();
    try {
      const source = new FakeListerWatcher([thing('a')]);
      const { informer, events } = startWith(source);
      await jest.advanceTimersByTimeAsync(0);
      expect(informer.hasSynced()).toBe(true);
      await jest.advanceTimersByTimeAsync(24 * 3600_000);
      expect(events.map((e) => e.type)).toEqual(['add']);
      await informer.stop();
    } finally {
      jest.useRealTimers();
    }
  });

  it('with a resync period, sends every cached object as an update with old === new', async () => {
    jest.useFakeTimers();
    try {
      const source = new FakeListerWatcher([thing('a'), thing('b')]);
      const { informer, events } = startWith(source, 1000);
      await jest.advanceTimersByTimeAsync(0);
      await jest.advanceTimersByTimeAsync(1000);
      const updates = events.filter((e): e is Extract<ObjectEvent, { type: 'update' }> => e.type === 'update');
      expect(updates.map((e) => e.object.metadata.name)).toEqual(['a', 'b']);
      expect(updates.every((e) => e.old === e.object)).toBe(true);
      await informer.stop();
    } finally {
      jest.useRealTimers();
    }
  });
});
