import { parseAccept, type MediaRange } from '../util/accept';

/** Whether a route's `accept` is a media type such as `text/csv` (no wildcards, no parameters). */
export const isMediaType = (value: string) => /^[\w.+-]+\/[\w.+-]+$/.test(value);

/**
 * Picks the route that answers a request's `Accept` header best, among routes
 * sharing a method and path: each offers a media type, or none (it answers
 * whatever is asked, the default). The highest `q` wins, then the most
 * specific match (`text/csv` over `text/*` over `*`/`*`); a route without a
 * type beats a typed one matched only by `*`/`*`, so a typed route answers
 * when it is asked for. Returns the index, or -1 when nothing is acceptable
 * (a 406).
 */
export function pickByAccept(header: string | undefined, offered: readonly (string | undefined)[]): number {
  const ranges = parseAccept(header);
  let best = -1;
  let bestScore = [0, 0];
  offered.forEach((type, i) => {
    const score = type === undefined ? [Math.max(...ranges.map((r) => r.q)), 1.5] : scoreOf(type, ranges);
    const better = score[0] > bestScore[0] || (score[0] === bestScore[0] && score[1] > bestScore[1]);
    if (score[0] > 0 && better) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

function scoreOf(mediaType: string, ranges: MediaRange[]): number[] {
  const [type, subtype] = mediaType.toLowerCase().split('/');
  let found = [0, 0];
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 3
        : range.type === type && range.subtype === '*'
          ? 2
          : range.type === '*' && range.subtype === '*'
            ? 1
            : 0;
    if (specificity > found[1]) found = [range.q, specificity];
  }
  return found;
}
