import { StatusError } from '../../api/errors';
import { compileSchema } from './compile';
import { aliasBomb, nested } from '../../../test/support/json-shapes';

describe('pruning within the limits on a decoded body', () => {
  it('makes pruning refuse a body nested deeper than a clone can copy', () => {
    const schema = compileSchema({
      type: 'object',
      properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    });
    let caught: unknown;
    try {
      schema.prune({ spec: nested(3000) });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StatusError);
    expect((caught as StatusError).code).toBe(400);
  });

  it('makes pruning refuse an alias bomb instead of walking it', () => {
    const schema = compileSchema({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            list: { type: 'array', items: { type: 'array', items: { type: 'array' } } },
          },
        },
      },
    });
    expect(() => schema.prune({ spec: { list: aliasBomb(12) } })).toThrow(/values/);
  });
});
