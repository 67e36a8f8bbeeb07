/** One sample of Prometheus' text format: a metric name, its labels and its value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of a `/metrics` answer (comments and malformed lines skipped). */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = LINE.exec(line);
    if (!match || line.startsWith('#')) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key] = value.replace(/\\(.)/g, '$1');
    const value = Number(match[3]);
    if (!Number.isNaN(value)) samples.push({ name: match[1], labels, value });
  }
  return samples;
}

/** The sum of a metric's samples whose labels pass `where` (every sample without it). */
export function total(
  samples: readonly Sample[],
  name: string,
  where: (labels: Record<string, string>) => boolean = () => true,
) {
  return samples.filter((s) => s.name === name && where(s.labels)).reduce((sum, s) => sum + s.value, 0);
}
