import { mergePatch } from './merge-patch';

describe('JSON merge patch (RFC 7386)', () => {
  // RFC 7386 Appendix A, every example.
  it.each<[unknown, unknown, unknown]>([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j patched with %j is %j', (target, patch, expected) => {
    expect(mergePatch(target, patch)).toEqual(expected);
  });

  it('changes neither argument and shares nothing with them', () => {
    const target = { spec: { tags: ['a'], keep: { x: 1 } } };
    const patch = { spec: { tags: ['b'], add: { y: 2 } } };
    const result = mergePatch(target, patch) as typeof target & { spec: { add: { y: number } } };
    expect(target).toEqual({ spec: { tags: ['a'], keep: { x: 1 } } });
    expect(patch).toEqual({ spec: { tags: ['b'], add: { y: 2 } } });
    result.spec.keep.x = 9;
    result.spec.tags.push('c');
    result.spec.add.y = 9;
    expect(target.spec.keep.x).toBe(1);
    expect(patch.spec.tags).toEqual(['b']);
    expect(patch.spec.add.y).toBe(2);
  });

  it('sets a __proto__ member as data, never as the prototype', () => {
    const result = mergePatch({}, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.keys(result)).toEqual(['__proto__']);
    expect(result.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
