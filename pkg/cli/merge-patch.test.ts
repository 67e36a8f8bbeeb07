import { applyMergePatch, mergePatchBetween } from './merge-patch';

describe('mergePatchBetween and applyMergePatch', () => {
  it.each([
    ['equal objects', { a: 1, b: { c: [1] } }, { a: 1, b: { c: [1] } }, {}],
    ['a changed scalar', { a: 1 }, { a: 2 }, { a: 2 }],
    ['a removed field', { a: 1, b: 2 }, { a: 1 }, { b: null }],
    ['an added nested field', { s: { a: 1 } }, { s: { a: 1, b: 2 } }, { s: { b: 2 } }],
    ['an array, replaced whole', { t: [1, 2] }, { t: [2] }, { t: [2] }],
    ['an object replaced by a scalar', { s: { a: 1 } }, { s: 'x' }, { s: 'x' }],
  ])('%s', (_what, from, to, patch) => {
    expect(mergePatchBetween(from, to)).toEqual(patch);
    expect(applyMergePatch(from, patch)).toEqual(to);
  });

  it('applies a patch to another base, keeping what the patch does not name', () => {
    const patch = mergePatchBetween({ spec: { age: 36, name: 'Ada' } }, { spec: { age: 37, name: 'Ada' } });
    expect(applyMergePatch({ spec: { age: 36, name: 'Ada L.' }, extra: true }, patch)).toEqual({
      spec: { age: 37, name: 'Ada L.' },
      extra: true,
    });
  });
});
