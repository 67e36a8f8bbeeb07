import { isPlainObject } from './plain-object';

describe('isPlainObject', () => {
  it.each([{}, { a: 1 }, Object.create(null) as object, JSON.parse('{"__proto__": {}}') as object])(
    'accepts the object %p',
    (value) => {
      expect(isPlainObject(value)).toBe(true);
    },
  );

  it.each([null, undefined, [], [{}], 'x', 0, true])('refuses %p', (value) => {
    expect(isPlainObject(value)).toBe(false);
  });
});
