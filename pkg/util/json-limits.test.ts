import { StatusError } from '../api/errors';
import { assertWithinLimits } from './json-limits';
import { aliasBomb, nested } from '../../test/support/json-shapes';

describe('the limits on a decoded body', () => {
  it('accepts objects up to the depth limit and refuses deeper ones with 400', () => {
    expect(() => assertWithinLimits(nested(10), { maxDepth: 10 })).not.toThrow();
    expect(() => assertWithinLimits(nested(11), { maxDepth: 10 })).toThrow(StatusError);
    expect(() => assertWithinLimits([[[1]]], { maxDepth: 3 })).not.toThrow();
    expect(() => assertWithinLimits([[[[1]]]], { maxDepth: 3 })).toThrow(/nested more than 3 levels deep/);
  });

  it('counts a value reached through two aliases twice, and stops at the limit', () => {
    expect(() => assertWithinLimits(aliasBomb(2), { maxValues: 211 })).not.toThrow();
    expect(() => assertWithinLimits(aliasBomb(2), { maxValues: 210 })).toThrow(/more than 210 values/);
    expect(() => assertWithinLimits(aliasBomb(12))).toThrow(StatusError);
  });

  it('counts object keys and array elements as fields, and refuses more than maxFields with 413', () => {
    expect(() => assertWithinLimits({ a: [1, 2], b: { c: 3 } }, { maxFields: 5 })).not.toThrow();
    let caught: unknown;
    try {
      assertWithinLimits({ a: [1, 2], b: { c: 3, d: 4 } }, { maxFields: 5 });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StatusError);
    expect(caught).toMatchObject({ code: 413, reason: 'RequestEntityTooLarge' });
    expect((caught as StatusError).message).toBe(
      'the request body holds more than 5 fields (object keys and array elements)',
    );
  });
});
