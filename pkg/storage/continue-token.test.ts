import { isStorageError } from './errors';
import { decodeContinue, encodeContinue, queryFingerprint } from './continue-token';

const codeOf = (call: () => unknown): string | undefined => {
  try {
    call();
    return undefined;
  } catch (err) {
    return isStorageError(err) ? err.code : 'not a StorageError';
  }
};

describe('continue tokens', () => {
  const fingerprint = queryFingerprint({ sort: [{ i: 'metadata.name', d: false }] });

  it('round-trip the position of the last item, also one without a sort value, and the items listed', () => {
    const position = { s: ['2026-01-01T00:00:00.000Z', false] as (string | false)[], n: 'ada' };
    expect(decodeContinue(encodeContinue(position, fingerprint, 6), fingerprint, 2)).toEqual({ position, listed: 6 });
  });

  it('read a token without the count of items listed as having listed none', () => {
    const old = Buffer.from(JSON.stringify({ v: 1, q: fingerprint, p: { s: ['x'], n: 'ada' } })).toString('base64url');
    expect(decodeContinue(old, fingerprint, 1).listed).toBe(0);
  });

  it('are Invalid when malformed, for another query, or for another number of sort keys', () => {
    const token = encodeContinue({ s: ['x'], n: 'ada' }, fingerprint, 3);
    const negative = Buffer.from(JSON.stringify({ v: 1, q: fingerprint, p: { s: ['x'], n: 'ada' }, c: -1 })).toString(
      'base64url',
    );
    expect(codeOf(() => decodeContinue(negative, fingerprint, 1))).toBe('Invalid');
    const other = queryFingerprint({ sort: [{ i: 'metadata.name', d: true }] });
    expect(other).not.toBe(fingerprint);
    expect(codeOf(() => decodeContinue(token, other, 1))).toBe('Invalid');
    expect(codeOf(() => decodeContinue(token, fingerprint, 2))).toBe('Invalid');
    for (const bad of ['', 'not a token', '%%%', Buffer.from('{"v":1}').toString('base64url')]) {
      expect({ bad, code: codeOf(() => decodeContinue(bad, fingerprint, 1)) }).toEqual({ bad, code: 'Invalid' });
    }
    expect(codeOf(() => decodeContinue(token, fingerprint, 1))).toBeUndefined();
  });
});
