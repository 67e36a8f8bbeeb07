import { StatusError } from '../api/errors';
import { MAX_NESTING_DEPTH } from '../util/json-limits';
import { decodeBody } from './body';

const nested = (depth: number) => Buffer.from(`{"spec":{"roles":${'['.repeat(depth)}${']'.repeat(depth)}}}`);

describe('decodeBody', () => {
  it('decodes JSON and YAML', () => {
    expect(decodeBody(Buffer.from('{"a":1}'), 'application/json')).toEqual({ a: 1 });
    expect(decodeBody(Buffer.from('a: 1\n'), 'application/yaml')).toEqual({ a: 1 });
  });

  it('refuses JSON nested deeper than the limit with 400, whatever handler reads it next', () => {
    expect(decodeBody(nested(MAX_NESTING_DEPTH - 3), 'application/json')).toBeDefined();
    const deep = () => decodeBody(nested(5000), 'application/json');
    expect(deep).toThrow(StatusError);
    expect(deep).toThrow(`nested more than ${MAX_NESTING_DEPTH} levels deep`);
    try {
      deep();
    } catch (err) {
      expect((err as StatusError).code).toBe(400);
    }
  });

  it('answers 415 for a media type it does not read, and 400 for an empty body', () => {
    expect(() => decodeBody(Buffer.from('{}'), 'text/plain')).toThrow(expect.objectContaining({ code: 415 }));
    expect(() => decodeBody(Buffer.from('{}'), ';;;==/')).toThrow(expect.objectContaining({ code: 415 }));
    expect(decodeBody(Buffer.from('{}'), undefined)).toEqual({});
    expect(() => decodeBody(Buffer.from('  '), 'application/json')).toThrow(expect.objectContaining({ code: 400 }));
  });
});
