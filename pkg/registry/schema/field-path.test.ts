import { fieldPathOfPointer, formatFieldPath, pointerSegments } from './field-path';

describe('field paths', () => {
  it.each<[(string | number)[], string]>([
    [[], ''],
    [['spec'], 'spec'],
    [['spec', 'tags', 2], 'spec.tags[2]'],
    [['spec', 'items', 0, 'bar'], 'spec.items[0].bar'],
    [['spec', 'matrix', 1, 0], 'spec.matrix[1][0]'],
  ])('formats %j as %p', (segments, expected) => {
    expect(formatFieldPath(segments)).toBe(expected);
  });

  it('unescapes JSON pointer tokens', () => {
    expect(pointerSegments('/a~1b/c~0d/~01')).toEqual(['a/b', 'c~d', '~1']);
  });

  it('uses an index only where the data holds an array', () => {
    const data = { spec: { tags: ['a', 'b', 'c'], byNumber: { 2: 'x' } } };
    expect(fieldPathOfPointer('/spec/tags/2', data)).toBe('spec.tags[2]');
    expect(fieldPathOfPointer('/spec/byNumber/2', data)).toBe('spec.byNumber.2');
  });
});
