import { copyOf, deepFreeze } from './deep-freeze';

describe('deepFreeze', () => {
  it('freezes the value and everything it holds, in place', () => {
    const object = { metadata: { name: 'ada', labels: { app: 'web' } }, spec: { tags: ['a', { b: 1 }] } };
    const frozen = deepFreeze(object);
    expect(frozen).toBe(object);
    for (const part of [
      object,
      object.metadata,
      object.metadata.labels,
      object.spec,
      object.spec.tags,
      object.spec.tags[1],
    ]) {
      expect(Object.isFrozen(part)).toBe(true);
    }
    expect(() => {
      (object.metadata.labels as Record<string, string>).app = 'db';
    }).toThrow(TypeError);
  });

  it('leaves primitives and null as they are', () => {
    expect(deepFreeze(3)).toBe(3);
    expect(deepFreeze(null)).toBeNull();
    expect(deepFreeze('x')).toBe('x');
  });
});

describe('copyOf', () => {
  it('gives a deep copy that may be changed without touching the frozen original', () => {
    interface Thing {
      spec: { tags: string[] };
    }
    const frozen = deepFreeze<Thing>({ spec: { tags: ['a'] } });
    const copy = copyOf<Thing>(frozen);
    copy.spec.tags.push('b');
    expect(copy.spec.tags).toEqual(['a', 'b']);
    expect(frozen.spec.tags).toEqual(['a']);
  });
});
