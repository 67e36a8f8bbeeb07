/** PASS or MISS, as every benchmark reports a goal. */
export const verdict = (met: boolean): string => (met ? 'PASS' : 'MISS');

/** A rate with thousands separators, e.g. `12,345`. */
export const rate = (perSecond: number): string => Math.round(perSecond).toLocaleString('en-US');

/** A ratio as a percentage, e.g. `93%`. */
export const percent = (ratio: number): string => `${(ratio * 100).toFixed(0)}%`;
