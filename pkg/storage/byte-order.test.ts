import { compareBytes } from './byte-order';
import { seededRandom, utf8Order } from './testing/seeded-random';

describe('compareBytes', () => {
  it('orders like UTF-8 bytes, where astral characters come after U+E000–FFFF (unlike UTF-16 <)', () => {
    const astral = '\u{1F600}';
    const highBmp = '\uFFFD';
    expect(astral < highBmp).toBe(true); // what plain JS comparison gets wrong
    expect(compareBytes(astral, highBmp)).toBeGreaterThan(0);
    expect(['b', astral, 'a', highBmp, ''].sort(compareBytes)).toEqual(['', 'a', 'b', highBmp, astral]);
  });

  it('agrees in sign with a byte-wise comparison of the UTF-8 encodings on random strings', () => {
    const rnd = seededRandom(7);
    const alphabet = ['a', 'b', 'Z', '0', '=', 'é', '\u0800', '\uD7FF', '\uE000', '\uFFFF', '\u{10000}', '\u{1F600}'];
    const word = () => Array.from({ length: rnd.int(4) }, () => rnd.pick(alphabet)).join('');
    for (let i = 0; i < 2000; i++) {
      const a = word();
      const b = word();
      expect([a, b, Math.sign(compareBytes(a, b))]).toEqual([a, b, Math.sign(utf8Order(a, b))]);
    }
  });
});
