/**
 * How every benchmark prints its figures: plain-text tables, number formats,
 * and each goal's verdict (PASS, MISS, or — when the run has no figure the
 * goal is stated for), counted in one closing line.
 */

/** A figure against its goal; `—` when the run has no figure the goal is stated for. */
export type Verdict = 'PASS' | 'MISS' | '—';

/** PASS when the goal is met, else MISS. */
export const verdict = (met: boolean): Verdict => (met ? 'PASS' : 'MISS');

/**
 * The closing line of a report, e.g. `Goals: 5 PASS, 1 MISS` (with a note when a goal had no figure).
 *
 * @example goalsLine(['PASS', 'MISS', '—'])
 */
export function goalsLine(verdicts: readonly Verdict[]): string {
  const count = (v: Verdict) => verdicts.filter((each) => each === v).length;
  const note = verdicts.includes('—') ? ' (— : this run has no figure the goal is stated for)' : '';
  return `Goals: ${count('PASS')} PASS, ${count('MISS')} MISS${note}`;
}

/** `N of M goals met.` */
export function goalsMet(met: readonly boolean[]): string {
  return `${met.filter(Boolean).length} of ${met.length} goals met.`;
}

/** Writes lines to stdout (the report; progress goes to stderr). */
export const say = (text = ''): void => {
  process.stdout.write(`${text}\n`);
};

/**
 * Renders rows as a plain-text table with a header rule; every column is as
 * wide as its widest cell, text left-aligned.
 *
 * @example
 * renderTable(['op', 'ms'], [['list', '0.4']])
 * // op    ms
 * // ----  ---
 * // list  0.4
 */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    widths
      .map((width, column) => (cells[column] ?? '').padEnd(width))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/** A duration in milliseconds with three significant digits, e.g. `0.412 ms`, `38.2 ms`, `1234 ms`. */
export function formatMs(ms: number): string {
  if (ms >= 1000) return `${Math.round(ms)} ms`;
  return `${ms.toPrecision(3)} ms`;
}

/** A throughput, e.g. `12,345 ops/s`. */
export function formatRate(opsPerSecond: number): string {
  return `${rate(opsPerSecond)} ops/s`;
}

/** A ratio, e.g. `83.4×`, `0.62×`. */
export function formatRatio(ratio: number): string {
  return `${ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2)}×`;
}

/** A rate with thousands separators, e.g. `12,345`. */
export const rate = (perSecond: number): string => Math.round(perSecond).toLocaleString('en-US');

/** A ratio as a percentage, e.g. `93%`. */
export const percent = (ratio: number): string => `${(ratio * 100).toFixed(0)}%`;
