import { lineDiff, type DiffLine } from '../api/line-diff';

/** Unchanged lines kept around each change; longer unchanged runs are folded. */
const CONTEXT = 2;

const MARK: Record<DiffLine['kind'], string> = { same: '  ', added: '+ ', removed: '- ' };

/**
 * What changed from one text to another, line by line: `+` added, `-`
 * removed, long unchanged runs folded. `label` names the region.
 */
export function DiffView(props: { label: string; before: string; after: string }) {
  const diff = lineDiff(props.before, props.after);
  if (!diff.some((l) => l.kind !== 'same')) return <p role="status">No changes.</p>;
  return (
    <pre class="diff" aria-label={props.label} tabIndex={0}>
      {folded(diff).map((entry, i) =>
        typeof entry === 'number' ? (
          <span key={i} class="muted">{`  ⋯ ${entry} unchanged lines\n`}</span>
        ) : (
          <span key={i} class={`diff-${entry.kind}`}>{`${MARK[entry.kind]}${entry.text}\n`}</span>
        ),
      )}
    </pre>
  );
}

/** The diff with each run of unchanged lines beyond CONTEXT of a change replaced by its length. */
function folded(diff: DiffLine[]): (DiffLine | number)[] {
  const near = diff.map((_, i) => diff.slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1).some((l) => l.kind !== 'same'));
  const out: (DiffLine | number)[] = [];
  diff.forEach((l, i) => {
    if (near[i]) out.push(l);
    else if (typeof out[out.length - 1] === 'number') (out[out.length - 1] as number)++;
    else out.push(1);
  });
  return out;
}
