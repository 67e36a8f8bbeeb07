import { describe, expect, it } from 'vitest';
import { changes, lineDiff } from './line-diff';

describe('lineDiff', () => {
  it('keeps common lines and marks what was removed and added, in order', () => {
    const diff = lineDiff('a\nb\nc\nd', 'a\nB\nc\nd\ne');
    expect(diff).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'B' },
      { kind: 'same', text: 'c' },
      { kind: 'same', text: 'd' },
      { kind: 'added', text: 'e' },
    ]);
    expect(changes(diff)).toBe(true);
  });

  it('finds no change between equal texts', () => {
    expect(changes(lineDiff('x: 1\ny: 2', 'x: 1\ny: 2'))).toBe(false);
  });

  it('replaces the whole text past its size limit, and still says exactly what went and came', () => {
    const big = Array.from({ length: 2500 }, (_, i) => `line ${i}`).join('\n');
    const diff = lineDiff(big, `${big}\nmore`);
    expect(diff.filter((l) => l.kind === 'removed')).toHaveLength(2500);
    expect(diff.filter((l) => l.kind === 'added')).toHaveLength(2501);
  });
});
