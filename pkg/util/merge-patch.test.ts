import { mergePatch, mergePatchBetween } from './merge-patch';

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

describe('mergePatchBetween', () => {
  it.each([
    ['equal objects', { a: 1, b: { c: [1] } }, { a: 1, b: { c: [1] } }, {}],
    ['a changed scalar', { a: 1 }, { a: 2 }, { a: 2 }],
    ['a removed field', { a: 1, b: 2 }, { a: 1 }, { b: null }],
    ['an added nested field', { s: { a: 1 } }, { s: { a: 1, b: 2 } }, { s: { b: 2 } }],
    ['an array, replaced whole', { t: [1, 2] }, { t: [2] }, { t: [2] }],
    ['an object replaced by a scalar', { s: { a: 1 } }, { s: 'x' }, { s: 'x' }],
  ])('%s: the patch, applied with mergePatch, gives the new object back', (_what, from, to, patch) => {
    expect(mergePatchBetween(from, to)).toEqual(patch);
    expect(mergePatch(from, patch)).toEqual(to);
  });

  it('applies a patch to another base, keeping what the patch does not name', () => {
    const patch = mergePatchBetween({ spec: { age: 36, name: 'Ada' } }, { spec: { age: 37, name: 'Ada' } });
    expect(mergePatch({ spec: { age: 36, name: 'Ada L.' }, extra: true }, patch)).toEqual({
      spec: { age: 37, name: 'Ada L.' },
      extra: true,
    });
  });

  it('reads and writes a __proto__ member as data', () => {
    const to = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const patch = mergePatchBetween({}, to);
    expect(Object.keys(patch)).toEqual(['__proto__']);
    expect((patch as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
