import { newToken, tokenHash, TOKEN_PREFIX } from './tokens';

describe('tokenHash', () => {
  it('is the SHA-256 of the token in hex, so that hashes stored earlier still match', () => {
    expect(tokenHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('tells new tokens apart', () => {
    const a = newToken();
    const b = newToken();
    expect(a.startsWith(TOKEN_PREFIX)).toBe(true);
    expect(tokenHash(a)).not.toBe(tokenHash(b));
    expect(tokenHash(a)).toBe(tokenHash(a));
  });
});
