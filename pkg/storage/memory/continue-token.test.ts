import { isStorageError } from '../errors';
import { decodeContinue, encodeContinue } from './continue-token';

describe('continue tokens', () => {
  it('round-trip the offset of the next page', () => {
    expect(decodeContinue(encodeContinue(0))).toBe(0);
    expect(decodeContinue(encodeContinue(12345))).toBe(12345);
  });

  it.each([
    ['not base64 JSON', '%%%'],
    ['JSON without an offset', Buffer.from('{"x":1}').toString('base64url')],
    ['a negative offset', Buffer.from('{"offset":-1}').toString('base64url')],
    ['a fractional offset', Buffer.from('{"offset":1.5}').toString('base64url')],
    ['JSON null', Buffer.from('null').toString('base64url')],
  ])('reject %s as Invalid', (_what, token) => {
    let caught: unknown;
    try {
      decodeContinue(token);
    } catch (err) {
      caught = err;
    }
    expect(isStorageError(caught, 'Invalid')).toBe(true);
  });
});
