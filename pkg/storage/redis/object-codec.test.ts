import type { ApiObject } from '../../api/object';
import { computeIndexValues, parseIndexValues, splitAtRevision, storedIndexValues } from './object-codec';

describe('splitAtRevision', () => {
  it('splits the JSON so that head + revision + tail is the object at that revision', () => {
    const object: ApiObject = {
      apiVersion: 'v1',
      kind: 'Thing',
      metadata: { name: 'ada', resourceVersion: 'old' },
      spec: { list: [], nested: { empty: {} }, text: '"resourceVersion":"x"' },
    };
    const { head, tail } = splitAtRevision(object);
    expect(JSON.parse(`${head}42${tail}`)).toEqual({ ...object, metadata: { name: 'ada', resourceVersion: '42' } });
  });
});

describe('index values as stored', () => {
  it('escapes NUL, the member separator, and SOH, and reads both back as they were', () => {
    const values = computeIndexValues([{ name: 'spec.tags', indexFunc: () => ['a', 'b\0c', 'd\u0001\0'] }], {
      apiVersion: 'v1',
      kind: 'Thing',
      metadata: {},
    });
    expect(values).toEqual({ 'spec.tags': ['a', 'b\u0001\u0001c', 'd\u0001\u0002\u0001\u0001'] });
    expect(parseIndexValues(storedIndexValues(values), 'ada')['spec.tags']).toEqual(['a', 'b\0c', 'd\u0001\0']);
  });

  it('reads an empty list that Lua wrote as {} as no values', () => {
    expect(parseIndexValues('{"a":{},"b":["x"]}', 'ada')).toEqual({ 'metadata.name': ['ada'], a: [], b: ['x'] });
  });

  it('stores the default indexes under short keys and the name not at all, and reads both forms back', () => {
    const values = {
      'metadata.name': ['ada'],
      'metadata.labels': ['tier=gold'],
      'metadata.creationTimestamp': ['2026-11-27T10:00:00.000Z'],
      'metadata.deletionTimestamp': [],
      'spec.tags': ['a'],
    };
    const stored = storedIndexValues(values);
    expect(JSON.parse(stored)).toEqual({
      '~l': ['tier=gold'],
      '~c': ['2026-11-27T10:00:00.000Z'],
      '~d': [],
      'spec.tags': ['a'],
    });
    expect(parseIndexValues(stored, 'ada')).toEqual(values);
    // As stored before: every index spelled out.
    expect(parseIndexValues(JSON.stringify(values), 'ada')).toEqual(values);
  });
});
