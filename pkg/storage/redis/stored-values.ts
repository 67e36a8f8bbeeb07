import { isPairIndex, isPairIndexName, PAIR_NO_SORT_VALUE, PAIR_SEPARATOR } from '../pair-indexes';
import type { IndexSpec } from '../indexes';

/*
 * Index values as the index sets hold them. A member is `<value>\0<name>` and a
 * pair value `<F value>\x01<S value>` (keys.ts), so a stored value may hold no
 * NUL, and a SOH in it must not be read as that separator. A value's NUL is
 * therefore stored as `\x01\x01` and its SOH as `\x01\x02`; every other
 * character is kept. The byte order of values is kept too (`\x01\x01` <
 * `\x01\x02` < `\x02`, and nothing is shorter than what it stands for), so
 * ranges and sorts over stored values read the values' order.
 */

const NUL = '\0';
const SOH = '\x01';
const STORED_NUL = '\x01\x01';
const STORED_SOH = '\x01\x02';

/** A value as the index sets hold it. @example storedValue('a\0b') // 'a\x01\x01b' */
export const storedValue = (value: string): string => value.replaceAll(SOH, STORED_SOH).replaceAll(NUL, STORED_NUL);

/** The value a stored value stands for (a SOH that escapes nothing, as stored before, is kept). */
export function valueOfStored(stored: string): string {
  if (!stored.includes(SOH)) return stored;
  let out = '';
  for (let i = 0; i < stored.length; i++) {
    const pair = stored.slice(i, i + 2);
    if (pair === STORED_NUL || pair === STORED_SOH) {
      out += pair === STORED_NUL ? NUL : SOH;
      i++;
    } else {
      out += stored[i];
    }
  }
  return out;
}

/**
 * Where the S value of a pair value starts: after its first byte below `\x03`, the separator (an F value
 * holds none); -1 for a pair value without one.
 */
function sortValueStart(value: string): number {
  for (let i = 0; i < value.length; i++) {
    if (value[i] === PAIR_SEPARATOR || value[i] === PAIR_NO_SORT_VALUE) return i + 1;
  }
  return -1;
}

/** A value of `spec` as stored: a pair value keeps its separator and stores its S value. */
export function storedIndexValue(spec: IndexSpec, value: string): string {
  if (!isPairIndex(spec)) return storedValue(value);
  const at = sortValueStart(value);
  return at < 0 ? value : value.slice(0, at) + storedValue(value.slice(at));
}

/** The value a stored value of the index named `index` stands for. */
export function indexValueOfStored(index: string, stored: string): string {
  if (!isPairIndexName(index)) return valueOfStored(stored);
  const at = sortValueStart(stored);
  return at < 0 ? stored : stored.slice(0, at) + valueOfStored(stored.slice(at));
}
