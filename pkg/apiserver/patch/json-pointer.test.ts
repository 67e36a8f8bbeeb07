import { StatusError } from '../../api/errors';
import { arrayIndex, parsePointer, pointerFieldPath } from './json-pointer';

describe('JSON pointers (RFC 6901)', () => {
  // RFC 6901 §5's pointers.
  it.each<[string, string[]]>([
    ['', []],
    ['/foo', ['foo']],
    ['/foo/0', ['foo', '0']],
    ['/', ['']],
    ['/a~1b', ['a/b']],
    ['/c%d', ['c%d']],
    ['/e^f', ['e^f']],
    ['/g|h', ['g|h']],
    ['/i\\j', ['i\\j']],
    ['/k"l', ['k"l']],
    ['/ ', [' ']],
    ['/m~0n', ['m~n']],
    ['/~01', ['~1']],
  ])('parses %p', (pointer, tokens) => {
    expect(parsePointer(pointer)).toEqual(tokens);
  });

  it.each(['foo', 'foo/bar', '/a~2b', '/a~'])('refuses %p with 400', (pointer) => {
    expect(() => parsePointer(pointer)).toThrow(StatusError);
    try {
      parsePointer(pointer);
    } catch (err) {
      expect((err as StatusError).code).toBe(400);
    }
  });

  it.each<[string, number | '-' | undefined]>([
    ['0', 0],
    ['12', 12],
    ['-', '-'],
    ['01', undefined],
    ['1.5', undefined],
    ['x', undefined],
    ['', undefined],
  ])('reads %p as array index %p', (token, index) => {
    expect(arrayIndex(token)).toBe(index);
  });

  it('prints tokens as a field path', () => {
    expect(pointerFieldPath(['spec', 'tags', '2'])).toBe('spec.tags[2]');
  });
});
