import { StatusError } from '../../api/errors';
import { applyJsonPatch, decodeJsonPatch, JsonPatchFailure } from './json-patch';

const apply = (doc: unknown, ops: unknown) => applyJsonPatch(doc, decodeJsonPatch(ops));

/** The failure applying `ops` to `doc` raises. */
function failureOf(doc: unknown, ops: unknown): JsonPatchFailure {
  try {
    apply(doc, ops);
  } catch (err) {
    if (err instanceof JsonPatchFailure) return err;
    throw err;
  }
  throw new Error('the patch applied');
}

describe('JSON patch (RFC 6902)', () => {
  // RFC 6902 Appendix A: the examples that succeed.
  it.each<[string, unknown, unknown, unknown]>([
    [
      'A.1 adding an object member',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz', value: 'qux' }],
      { baz: 'qux', foo: 'bar' },
    ],
    [
      'A.2 adding an array element',
      { foo: ['bar', 'baz'] },
      [{ op: 'add', path: '/foo/1', value: 'qux' }],
      { foo: ['bar', 'qux', 'baz'] },
    ],
    ['A.3 removing an object member', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
    [
      'A.4 removing an array element',
      { foo: ['bar', 'qux', 'baz'] },
      [{ op: 'remove', path: '/foo/1' }],
      { foo: ['bar', 'baz'] },
    ],
    [
      'A.5 replacing a value',
      { baz: 'qux', foo: 'bar' },
      [{ op: 'replace', path: '/baz', value: 'boo' }],
      { baz: 'boo', foo: 'bar' },
    ],
    [
      'A.6 moving a value',
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    ],
    [
      'A.7 moving an array element',
      { foo: ['all', 'grass', 'cows', 'eat'] },
      [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
      { foo: ['all', 'cows', 'eat', 'grass'] },
    ],
    [
      'A.8 testing a value: success',
      { baz: 'qux', foo: ['a', 2, 'c'] },
      [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ],
      { baz: 'qux', foo: ['a', 2, 'c'] },
    ],
    [
      'A.10 adding a nested member object',
      { foo: 'bar' },
      [{ op: 'add', path: '/child', value: { grandchild: {} } }],
      { foo: 'bar', child: { grandchild: {} } },
    ],
    [
      'A.11 ignoring unrecognised elements',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }],
      { foo: 'bar', baz: 'qux' },
    ],
    ['A.14 ~ escape ordering', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }],
    [
      'A.16 adding an array value',
      { foo: ['bar'] },
      [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }],
      { foo: ['bar', ['abc', 'def']] },
    ],
    ['copy', { a: { b: [1] } }, [{ op: 'copy', from: '/a', path: '/c' }], { a: { b: [1] }, c: { b: [1] } }],
    ['add replacing an existing member', { a: 1 }, [{ op: 'add', path: '/a', value: 2 }], { a: 2 }],
    ['add at the end index of an array', { a: [1] }, [{ op: 'add', path: '/a/1', value: 2 }], { a: [1, 2] }],
    ['replace of the whole document', { a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }], { b: 2 }],
    ['a null value', { a: 1 }, [{ op: 'replace', path: '/a', value: null }], { a: null }],
    [
      'test of an object whatever its member order',
      { a: { x: 1, y: [1, 2] } },
      [{ op: 'test', path: '/a', value: { y: [1, 2], x: 1 } }],
      { a: { x: 1, y: [1, 2] } },
    ],
    ['a move to where it is', { a: 1 }, [{ op: 'move', from: '/a', path: '/a' }], { a: 1 }],
    ['no operations', { a: 1 }, [], { a: 1 }],
  ])('%s', (_name, doc, ops, expected) => {
    expect(apply(doc, ops)).toEqual(expected);
  });

  // RFC 6902 Appendix A: the examples that fail, and other failures of a well-formed patch.
  it.each<[string, unknown, unknown, string | undefined, RegExp]>([
    [
      'A.9 testing a value: error',
      { baz: 'qux' },
      [{ op: 'test', path: '/baz', value: 'bar' }],
      'baz',
      /operation 0 \(test "\/baz"\).*not the one the test expects/,
    ],
    [
      'A.12 adding to a nonexistent target',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz/bat', value: 'qux' }],
      'baz',
      /operation 0 .*does not exist/,
    ],
    [
      'A.15 comparing strings and numbers',
      { '/': 9, '~1': 10 },
      [{ op: 'test', path: '/~01', value: '10' }],
      '~1',
      /test/,
    ],
    ['removing a missing member', { a: 1 }, [{ op: 'remove', path: '/b' }], 'b', /does not exist/],
    ['replacing a missing member', { a: 1 }, [{ op: 'replace', path: '/b', value: 1 }], 'b', /does not exist/],
    ['testing a missing member', { a: 1 }, [{ op: 'test', path: '/b', value: 1 }], 'b', /does not exist/],
    ['an index past the end', { a: [1] }, [{ op: 'add', path: '/a/3', value: 1 }], 'a[3]', /out of range/],
    [
      'an index with a leading zero',
      { a: [1, 2] },
      [{ op: 'replace', path: '/a/01', value: 1 }],
      'a.01',
      /does not exist/,
    ],
    [
      'a token that is no index in an array',
      { a: [1] },
      [{ op: 'add', path: '/a/x', value: 1 }],
      'a.x',
      /not an array index/,
    ],
    ['removing "-"', { a: [1] }, [{ op: 'remove', path: '/a/-' }], 'a[-]', /does not exist/],
    ['copying from a missing path', { a: 1 }, [{ op: 'copy', from: '/b', path: '/c' }], 'b', /does not exist/],
    [
      'moving a value into its own child',
      { a: { b: 1 } },
      [{ op: 'move', from: '/a', path: '/a/b/c' }],
      'a.b.c',
      /into itself/,
    ],
    ['removing the whole document', { a: 1 }, [{ op: 'remove', path: '' }], undefined, /whole document/],
    [
      'a path through a scalar',
      { a: 'text' },
      [{ op: 'add', path: '/a/b', value: 1 }],
      'a',
      /neither an object nor an array/,
    ],
  ])('fails on %s', (_name, doc, ops, field, message) => {
    const failure = failureOf(doc, ops);
    expect(failure.statusCause.field).toBe(field);
    expect(failure.statusCause.reason).toBe('FieldValueInvalid');
    expect(failure.statusCause.message).toMatch(message);
  });

  it('names the index of the operation that failed', () => {
    const ops = [
      { op: 'add', path: '/a', value: 1 },
      { op: 'test', path: '/a', value: 2 },
    ];
    expect(failureOf({}, ops).statusCause.message).toMatch(/^JSON patch operation 1 \(test "\/a"\)/);
  });

  it('applies all operations or none, and never changes the document it is given', () => {
    const doc = { a: [1, 2], b: { c: 1 } };
    failureOf(doc, [
      { op: 'remove', path: '/a/0' },
      { op: 'add', path: '/b/c', value: 5 },
      { op: 'test', path: '/x', value: 1 },
    ]);
    expect(doc).toEqual({ a: [1, 2], b: { c: 1 } });
    const result = apply(doc, [{ op: 'remove', path: '/a/0' }]) as typeof doc;
    expect(doc.a).toEqual([1, 2]);
    result.b.c = 9;
    expect(doc.b.c).toBe(1);
  });

  it('copies values, so that a copy does not share with its source', () => {
    const result = apply({ a: { x: 1 } }, [
      { op: 'copy', from: '/a', path: '/b' },
      { op: 'replace', path: '/b/x', value: 2 },
    ]);
    expect(result).toEqual({ a: { x: 1 }, b: { x: 2 } });
  });

  it.each<[string, unknown, RegExp]>([
    ['a document that is not an array', { op: 'add', path: '/a', value: 1 }, /must be an array/],
    ['an operation that is not an object', ['add'], /operation 0 is malformed: it must be an object/],
    ['an unknown op', [{ op: 'merge', path: '/a' }], /operation 0 .*"op" must be one of/],
    ['a missing path', [{ op: 'add', value: 1 }], /"path" must be a string/],
    [
      'a missing value',
      [
        { op: 'remove', path: '/a' },
        { op: 'add', path: '/a' },
      ],
      /operation 1 .*"value" is required for add/,
    ],
    ['a missing from', [{ op: 'move', path: '/a' }], /"from" must be a string for move/],
    ['a path that is no pointer', [{ op: 'remove', path: 'a' }], /not a JSON pointer/],
    ['a bad ~ escape', [{ op: 'copy', from: '/a~2', path: '/b' }], /"~" must be followed by 0 or 1/],
  ])('refuses %s with 400', (_name, document, message) => {
    let caught: unknown;
    try {
      decodeJsonPatch(document);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StatusError);
    expect((caught as StatusError).code).toBe(400);
    expect((caught as StatusError).message).toMatch(message);
  });
});
