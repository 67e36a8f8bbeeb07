import { IndexTable } from './index-table';
import { orderNames, positionOf, type TableSortKey } from './list-order';
import type { NameFilter } from './name-filter';
import { seededRandom, utf8Order } from '../testing/seeded-random';

interface Sample {
  name: string;
  values: Record<string, string[]>;
}

const INDEXES = ['metadata.name', 'spec.rank', 'spec.tags', 'spec.color'];

/** The documented order, computed directly from the objects: what orderNames must agree with. */
function referenceOrder(samples: Sample[], keys: { index: string; direction: 'asc' | 'desc' }[]): string[] {
  const pickValue = (s: Sample, index: string, direction: string): string | undefined => {
    const sorted = [...(s.values[index] ?? [])].sort(utf8Order);
    return direction === 'asc' ? sorted[0] : sorted[sorted.length - 1];
  };
  return [...samples]
    .sort((a, b) => {
      for (const { index, direction } of keys) {
        const va = pickValue(a, index, direction);
        const vb = pickValue(b, index, direction);
        if (va === vb) continue;
        if (va === undefined) return 1;
        if (vb === undefined) return -1;
        return direction === 'asc' ? utf8Order(va, vb) : utf8Order(vb, va);
      }
      return utf8Order(a.name, b.name);
    })
    .map((s) => s.name);
}

function fixture(seed: number) {
  const rnd = seededRandom(seed);
  const samples: Sample[] = Array.from({ length: 40 + rnd.int(40) }, (_, i) => {
    const name = `w${(i * 7919) % 1000}`;
    return {
      name,
      values: {
        'metadata.name': [name],
        'spec.rank': rnd.next() < 0.2 ? [] : [String(rnd.int(5))],
        'spec.tags': rnd.some(['a', 'b', 'c', 'é', '\u{1F600}'], 0.35),
        'spec.color': rnd.next() < 0.5 ? [] : [rnd.pick(['red', 'green'])],
      },
    };
  });
  const tables = new Map(INDEXES.map((index) => [index, new IndexTable({ name: index, indexFunc: () => undefined })]));
  for (const s of samples) for (const index of INDEXES) tables.get(index)?.set(s.name, s.values[index]);
  return { rnd, samples, tables };
}

describe('orderNames', () => {
  it('orders like the documented rules, whether it sorts the matches or walks the first key', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const { rnd, samples, tables } = fixture(seed);
      const keySpecs = Array.from({ length: 1 + rnd.int(3) }, () => ({
        index: rnd.pick(INDEXES),
        direction: rnd.pick(['asc', 'desc'] as const),
      }));
      const [first, ...rest] = keySpecs.map((k): TableSortKey => ({
        table: tables.get(k.index) as IndexTable,
        direction: k.direction,
      }));
      // Sparse filters get sorted, dense or uncollected ones get walked: cover both.
      const kept = new Set(
        rnd.some(
          samples.map((s) => s.name),
          rnd.pick([0.1, 0.9]),
        ),
      );
      const filters: NameFilter[] = [
        { has: (n) => kept.has(n), size: kept.size, names: kept },
        { has: (n) => kept.has(n), size: kept.size },
      ];
      const expected = referenceOrder(
        samples.filter((s) => kept.has(s.name)),
        keySpecs,
      );
      const needed = rnd.pick([1, 5, 20, Infinity]);
      for (const filter of filters) {
        const got = orderNames(filter, [first, ...rest], needed, samples.length);
        const context = { seed, keySpecs, collected: filter.names !== undefined, needed };
        expect({ ...context, order: got.slice(0, needed) }).toEqual({ ...context, order: expected.slice(0, needed) });
        expect(got.length).toBeGreaterThanOrEqual(Math.min(needed, expected.length));
      }
    }
  });

  it('resumes strictly after any position, also one whose object is gone, whether it sorts or walks', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const { rnd, samples, tables } = fixture(seed);
      const keySpecs = Array.from({ length: 1 + rnd.int(3) }, () => ({
        index: rnd.pick(INDEXES),
        direction: rnd.pick(['asc', 'desc'] as const),
      }));
      const keys = keySpecs.map((k): TableSortKey => ({
        table: tables.get(k.index) as IndexTable,
        direction: k.direction,
      }));
      const [first, ...rest] = keys;
      const order = referenceOrder(samples, keySpecs);
      const cut = rnd.int(order.length);
      const position = positionOf(keys, order[cut]);
      // Half the time the object the position was taken from is removed before the resume.
      const gone = rnd.next() < 0.5;
      if (gone) for (const table of tables.values()) table.delete(order[cut]);
      const kept = new Set(
        rnd.some(
          samples.map((s) => s.name),
          rnd.pick([0.1, 0.9]),
        ),
      );
      if (gone) kept.delete(order[cut]);
      const expected = order.slice(cut + 1).filter((n) => kept.has(n));
      for (const names of [kept, undefined]) {
        const filter: NameFilter = { has: (n) => kept.has(n), size: kept.size, names };
        const got = orderNames(filter, [first, ...rest], Infinity, samples.length, position);
        const context = { seed, keySpecs, gone, collected: names !== undefined };
        expect({ ...context, order: got }).toEqual({ ...context, order: expected });
      }
    }
  });

  it('stops walking once a page is found instead of ordering every object', () => {
    const rank = new IndexTable({ name: 'spec.rank', indexFunc: () => undefined });
    for (let i = 0; i < 1000; i++) rank.set(`w${String(i).padStart(4, '0')}`, [String(i).padStart(4, '0')]);
    const everything: NameFilter = { has: () => true, size: 1000 };
    const page = orderNames(everything, [{ table: rank, direction: 'desc' }], 3, 1000);
    expect(page).toEqual(['w0999', 'w0998', 'w0997']);
  });
});
