import { verifyFailover, type WatchSegment } from './failover-workload';

const events = (...revisions: number[]): WatchSegment['events'] =>
  revisions.map((revision) => ({ name: `c${revision}`, value: revision, revision }));
const surviving = (...revisions: number[]) =>
  new Map(revisions.map((revision) => [revision, { name: `c${revision}`, value: revision }]));
const all = surviving(1, 2, 3, 4, 5, 6, 7, 8, 9);

describe('verifyFailover', () => {
  it('finds nothing wrong in a watcher that was handed every revision once, in order', () => {
    const verdict = verifyFailover([], [{ segments: [{ events: events(1, 2, 3), end: 'stopped' }] }], all);
    expect(verdict).toMatchObject({ skipped: 0, repeated: 0, wrongEvents: 0, breaks: [] });
  });

  it('counts and shows a list handed over as events: revisions out of order, then a gap', () => {
    // What a watch from resourceVersion 0 begins with: the objects as they are, in name order.
    const segment: WatchSegment = { events: events(7, 2, 3, 4, 5, 6, 8), end: 'stopped' };
    const verdict = verifyFailover([], [{ segments: [segment] }], all);
    expect(verdict).toMatchObject({ skipped: 1, repeated: 1 });
    expect(verdict.breaks).toEqual(['watcher 0 segment 0: 7 [2 c2=2] 3 4', 'watcher 0 segment 0: 4 5 6 [8 c8=8]']);
  });

  it('counts events Redis no longer has as wrong, unless their watch then ended with Expired', () => {
    const kept = surviving(1, 2);
    const wrong = verifyFailover([], [{ segments: [{ events: events(1, 2, 3), end: 'stopped' }] }], kept);
    const retracted = verifyFailover([], [{ segments: [{ events: events(1, 2, 3), end: 'expired' }] }], kept);
    expect([wrong.wrongEvents, wrong.retractedEvents]).toEqual([1, 0]);
    expect([retracted.wrongEvents, retracted.retractedEvents, retracted.expiredWatches]).toEqual([0, 1, 1]);
  });

  it('counts an acknowledged write the stream does not hold as it was written as lost', () => {
    const writes = [
      { name: 'c1', value: 1, revision: 1, at: 0 },
      { name: 'c2', value: 5, revision: 2, at: 0 },
    ];
    expect(verifyFailover(writes, [], all).lost).toEqual([writes[1]]);
  });
});
