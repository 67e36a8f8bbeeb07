/** One media range of an `Accept` header: `text/*;q=0.5` → `{type: 'text', subtype: '*', params: {}, q: 0.5}`. */
export interface MediaRange {
  type: string;
  subtype: string;
  /** The parameters but `q`: names in lower case, values as sent, e.g. `{as: 'Table', g: 'meta.k8s.io'}`. */
  params: Record<string, string>;
  /** The quality, 0 to 1: 1 when absent, 0 when malformed or out of range (the range then asks for nothing). */
  q: number;
}

const ANY: MediaRange = { type: '*', subtype: '*', params: {}, q: 1 };

/**
 * The media ranges of an `Accept` header, in order; type and subtype in lower case. A part without both is passed
 * over; an absent header, or one with no readable range, accepts anything (`*` `/` `*`), as RFC 9110 reads it.
 * @example parseAccept('application/json;as=Table;g=meta.k8s.io, text/*;q=0.1')
 * // → [{type: 'application', subtype: 'json', params: {as: 'Table', g: 'meta.k8s.io'}, q: 1},
 * //    {type: 'text', subtype: '*', params: {}, q: 0.1}]
 */
export function parseAccept(header: string | undefined): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of (header ?? '').split(',')) {
    const range = mediaRange(part);
    if (range) ranges.push(range);
  }
  return ranges.length ? ranges : [ANY];
}

/** One part of an `Accept` header, or undefined when it has no `type/subtype`. */
function mediaRange(part: string): MediaRange | undefined {
  const [media, ...rest] = part.split(';');
  const [type, subtype, extra] = media.trim().toLowerCase().split('/');
  if (!type || !subtype || extra !== undefined) return undefined;
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  let q = 1;
  for (const param of rest) {
    const eq = param.indexOf('=');
    const name = (eq < 0 ? param : param.slice(0, eq)).trim().toLowerCase();
    const value = eq < 0 ? '' : param.slice(eq + 1).trim();
    if (name === 'q') q = qualityOf(value);
    else if (name) params[name] = value;
  }
  return { type, subtype, params, q };
}

/** A `q` value: a number from 0 to 1, else 0. */
function qualityOf(value: string): number {
  const q = value === '' ? NaN : Number(value);
  return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0;
}
