import { isStorageError } from './errors';
import { countOption, sortDirection, unknownIndex } from './list-options';

const invalidMessage = (call: () => unknown): string => {
  try {
    call();
  } catch (err) {
    if (isStorageError(err, 'Invalid')) return err.message;
    throw err;
  }
  throw new Error('expected an Invalid StorageError');
};

describe('list option checks', () => {
  it('countOption passes absent and non-negative integers, refuses the rest', () => {
    expect(countOption(undefined, 'limit')).toBeUndefined();
    expect(countOption(0, 'limit')).toBe(0);
    expect(countOption(25, 'offset')).toBe(25);
    expect(invalidMessage(() => countOption(-1, 'limit'))).toBe('limit must be a non-negative integer, not -1');
    expect(invalidMessage(() => countOption(0.5, 'offset'))).toBe('offset must be a non-negative integer, not 0.5');
    expect(invalidMessage(() => countOption(Number.NaN, 'limit'))).toBe(
      'limit must be a non-negative integer, not NaN',
    );
    expect(invalidMessage(() => countOption(2 ** 53, 'limit'))).toContain('limit must be a non-negative integer');
  });

  it("sortDirection takes the key's direction, else the index's order, and refuses any other", () => {
    expect(sortDirection('t', { index: 'i', direction: 'desc' }, { order: 'ASC' })).toBe('desc');
    expect(sortDirection('t', { index: 'i' } as never, { order: 'DESC' })).toBe('desc');
    expect(sortDirection('t', { index: 'i' } as never, {})).toBe('asc');
    expect(invalidMessage(() => sortDirection('t', { index: 'i', direction: 'up' as 'asc' }, {}))).toBe(
      'sort: the direction of "i" must be asc or desc',
    );
  });

  it('unknownIndex names the index, where it was used and the indexes there are', () => {
    const err = unknownIndex('persons', 'spec.note', 'fieldSelector', ['metadata.name', 'spec.age']);
    expect(isStorageError(err, 'Invalid')).toBe(true);
    expect(err.message).toBe(
      'fieldSelector: "spec.note" is not an index of persons; its indexes are: metadata.name, spec.age',
    );
    expect(err.details).toEqual({ type: 'persons', index: 'spec.note' });
  });
});
