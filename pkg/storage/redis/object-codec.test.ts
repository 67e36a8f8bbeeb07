import type { ApiObject } from '../../api/object';
import { computeIndexValues, parseIndexValues, splitAtRevision } from './object-codec';

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
  it('leaves out values holding NUL, the member separator', () => {
    const values = computeIndexValues([{ name: 'spec.tags', indexFunc: () => ['a', 'b\0c'] }], {
      apiVersion: 'v1',
      kind: 'Thing',
      metadata: {},
    });
    expect(values).toEqual({ 'spec.tags': ['a'] });
  });

  it('reads an empty list that Lua wrote as {} as no values', () => {
    expect(parseIndexValues('{"a":{},"b":["x"]}')).toEqual({ a: [], b: ['x'] });
  });
});
