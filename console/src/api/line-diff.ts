/** One line of a diff: kept, added (only in the new text) or removed (only in the old). */
export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** Past this many line pairs the diff is not worked out line by line: the whole old text out, the new in. */
const MAX_CELLS = 4_000_000;

/** The lines that differ between two texts (a longest-common-subsequence diff), in order. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length * b.length > MAX_CELLS) {
    return [...a.map((text) => line('removed', text)), ...b.map((text) => line('added', text))];
  }
  const lengths = commonLengths(a, b);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(line('same', a[i++]));
      j++;
    } else if (i < a.length && (j === b.length || lengths[i + 1][j] >= lengths[i][j + 1]))
      out.push(line('removed', a[i++]));
    else out.push(line('added', b[j++]));
  }
  return out;
}

/** lengths[i][j]: the length of the longest common subsequence of a[i..] and b[j..]. */
function commonLengths(a: string[], b: string[]): Uint32Array[] {
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i][j] = a[i] === b[j] ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
  return lengths;
}

function line(kind: DiffLine['kind'], text: string): DiffLine {
  return { kind, text };
}

/** Whether a diff changes anything. */
export const changes = (diff: readonly DiffLine[]) => diff.some((l) => l.kind !== 'same');
