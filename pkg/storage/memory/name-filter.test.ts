import { fieldMatches, labelsMatch } from '../match';
import type { FieldRequirement, LabelRequirement } from '../query';
import { IndexTable } from './index-table';
import { buildNameFilter } from './name-filter';
import { seededRandom } from '../testing/seeded-random';

interface Sample {
  name: string;
  labels: Record<string, string>;
  tags: string[];
}

const KEYS = ['app', 'tier', 'app.kubernetes.io/name'];
const VALUES = ['web', 'api', 'db'];
const TAGS = ['a', 'b', 'c', 'd'];

function fixture(seed: number) {
  const rnd = seededRandom(seed);
  const samples: Sample[] = Array.from({ length: 60 }, (_, i) => ({
    name: `o${i}`,
    labels: Object.fromEntries(rnd.some(KEYS).map((k) => [k, rnd.pick(VALUES)])),
    tags: rnd.some(TAGS, 0.3),
  }));
  const labels = new IndexTable({ name: 'metadata.labels', indexFunc: () => undefined });
  const tags = new IndexTable({ name: 'spec.tags', indexFunc: () => undefined });
  for (const s of samples) {
    labels.set(
      s.name,
      Object.entries(s.labels).map(([k, v]) => `${k}=${v}`),
    );
    tags.set(s.name, s.tags);
  }
  const labelReq = (): LabelRequirement => {
    const op = rnd.pick(['in', 'notin', 'exists', '!exists'] as const);
    const values = op === 'in' || op === 'notin' ? rnd.some(VALUES, 0.6) : [];
    return { key: rnd.pick(KEYS), op, values };
  };
  const fieldReq = (): FieldRequirement => ({
    field: 'spec.tags',
    op: rnd.pick(['in', 'notin'] as const),
    values: rnd.some(TAGS, 0.4),
  });
  return { rnd, samples, labels, tags, labelReq, fieldReq };
}

describe('buildNameFilter', () => {
  it('accepts exactly the objects that match.ts accepts, for random requirement mixes', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const { rnd, samples, labels, tags, labelReq, fieldReq } = fixture(seed);
      const labelReqs = Array.from({ length: rnd.int(3) }, labelReq);
      const fieldReqs = Array.from({ length: rnd.int(3) }, fieldReq);
      const filter = buildNameFilter(
        labels,
        labelReqs,
        fieldReqs.map((r) => ({ ...r, table: tags })),
        samples.length,
      );

      const expected = samples
        .filter((s) => labelsMatch(s.labels, labelReqs) && fieldReqs.every((r) => fieldMatches(s.tags, r)))
        .map((s) => s.name);
      const context = { seed, labelReqs, fieldReqs };
      expect({ ...context, accepted: samples.map((s) => s.name).filter((n) => filter.has(n)) }).toEqual({
        ...context,
        accepted: expected,
      });
      expect({ ...context, size: filter.size }).toEqual({ ...context, size: expected.length });
      if (filter.names !== undefined) expect([...filter.names].sort()).toEqual([...expected].sort());
    }
  });

  it('collects names when a requirement names values, and leaves them uncollected for exclusions only', () => {
    const { samples, labels, tags } = fixture(1);
    const positive = buildNameFilter(labels, [{ key: 'app', op: 'in', values: ['web'] }], [], samples.length);
    const negative = buildNameFilter(
      labels,
      [{ key: 'app', op: '!exists', values: [] }],
      [{ table: tags, op: 'notin', values: ['a'] }],
      samples.length,
    );
    expect(positive.names).toBeDefined();
    expect(negative.names).toBeUndefined();
  });

  it("never changes the index's own sets", () => {
    const { samples, labels } = fixture(2);
    const before = [...labels.namesWith('app=web')];
    const filter = buildNameFilter(
      labels,
      [
        { key: 'app', op: 'in', values: ['web'] },
        { key: 'tier', op: 'notin', values: ['db'] },
      ],
      [],
      samples.length,
    );
    expect([...labels.namesWith('app=web')]).toEqual(before);
    expect(filter.size).toBeLessThanOrEqual(before.length);
  });
});
