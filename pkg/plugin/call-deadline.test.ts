import { coarseTimeout } from './call-deadline';

describe('coarseTimeout', () => {
  it('gives a call at least its limit and at most a tenth more', () => {
    for (const now of [0, 0.4, 49.9, 50, 1234.5, 987_654.321]) {
      const timeout = coarseTimeout(500, now);
      expect(Number.isInteger(timeout)).toBe(true);
      expect(timeout).toBeGreaterThan(500);
      expect(timeout).toBeLessThanOrEqual(550);
    }
  });

  it('makes calls of one slot fall due within the same millisecond, and calls of the next slot a slot later', () => {
    const dueAt = (now: number) => now + coarseTimeout(500, now);
    const slot = [1000, 1000.7, 1012.3, 1049.9].map(dueAt);
    for (const due of slot) expect(due - slot[0]).toBeLessThan(1);
    expect(dueAt(1050) - dueAt(1000)).toBe(50);
  });

  it('keeps slots of at least a millisecond for short limits', () => {
    expect(coarseTimeout(5, 100.5)).toBe(6);
    expect(coarseTimeout(1, 7)).toBe(2);
  });
});
