import { jsonEqual } from './json-equal';

describe('jsonEqual', () => {
  it('compares objects by keys and values in any order, arrays item by item', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 2 })).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual([1], { 0: 1 })).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });

  it('treats an undefined property like an absent one, as JSON does', () => {
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
  });

  it('ignores prototypes, which differ between realms', () => {
    expect(jsonEqual(structuredClone({ a: { b: 1 } }), Object.assign(Object.create(null), { a: { b: 1 } }))).toBe(true);
  });
});

describe('jsonEqual on request bodies', () => {
  it('reads a "__proto__" member as data, not as the prototype', () => {
    const body = (json: string): unknown => JSON.parse(json);
    expect(jsonEqual(body('{"__proto__":{"a":1}}'), body('{"__proto__":{"a":1}}'))).toBe(true);
    expect(jsonEqual(body('{"__proto__":{"a":1}}'), body('{"__proto__":{"a":2}}'))).toBe(false);
    expect(jsonEqual(body('{"__proto__":{}}'), {})).toBe(false);
  });

  it('compares numbers by value and never equates different types', () => {
    expect(jsonEqual(1, 1.0)).toBe(true);
    expect(jsonEqual(1, '1')).toBe(false);
    expect(jsonEqual(0, false)).toBe(false);
    expect(jsonEqual(null, null)).toBe(true);
  });
});
