/**
 * String order for index values and names: the byte order of their UTF-8
 * encodings, which is how the Redis backend's sorted sets order them
 * (`indexes.ts`: "values sort as strings (byte order)").
 */

// JavaScript's `<` compares UTF-16 code units, which differs from UTF-8 byte
// order in one place: surrogates (U+D800–DFFF, which encode code points above
// U+FFFF) sort before U+E000–FFFF in UTF-16 but after them in UTF-8. Ranking
// the units moves surrogates to the top.
const rank = (unit: number): number => (unit < 0xd800 ? unit : unit >= 0xe000 ? unit - 0x800 : unit + 0x2000);

/**
 * Compares two strings in UTF-8 byte order: negative, zero or positive.
 *
 * @example ['b', 'a', '\u{1F600}', '\uFFFD'].sort(compareBytes) // ['a', 'b', '\uFFFD', '\u{1F600}']
 */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}
