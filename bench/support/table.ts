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
