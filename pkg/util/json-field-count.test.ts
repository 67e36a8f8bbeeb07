import { countJsonFields } from './json-field-count';

describe('counting the fields of a JSON text', () => {
  it.each<[string, unknown]>([
    ['a scalar', 'text'],
    ['an empty object and array', { a: {}, b: [] }],
    ['nested arrays and objects', { a: [1, [2, 3], [], { x: [] }], b: { c: { d: null } } }],
    ['strings holding JSON punctuation and escapes', { 'k:,[': 'v,:]{"\\', list: ['a,b', '[', ']'] }],
    ['a top-level array', [{ a: 1 }, [], 'x']],
  ])('counts object keys and array elements of %s, as a walk of the parsed value does', (_what, value) => {
    expect(countJsonFields(JSON.stringify(value, null, 1))).toBe(walkCount(value));
    expect(countJsonFields(JSON.stringify(value))).toBe(walkCount(value));
  });

  it('stops soon after passing max', () => {
    const text = JSON.stringify(Array.from({ length: 1000 }, (_, i) => i));
    expect(countJsonFields(text, 10)).toBe(11);
  });
});

/** The fields of a parsed value, counted by walking it. */
function walkCount(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Object.values(value);
  return children.length + children.reduce((sum: number, child) => sum + walkCount(child), 0);
}
