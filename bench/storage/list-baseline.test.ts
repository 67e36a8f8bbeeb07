import type { ApiObject } from '../../pkg/api/object';
import { firstPage } from './list-baseline';

const object = (name: string, creationTimestamp: string, group: string): ApiObject => ({
  apiVersion: 'bench.svc.run/v1',
  kind: 'BenchPerson',
  metadata: { name, creationTimestamp, labels: { group } },
});

const group = (value: string) => ({ key: 'group', op: 'in' as const, values: [value] });

describe('the list baseline picks the page Storage.list would return', () => {
  const objects = [
    object('b', '2026-01-01T00:00:00.002Z', 'x'),
    object('a', '2026-01-01T00:00:00.002Z', 'y'),
    object('c', '2026-01-01T00:00:00.003Z', 'x'),
    object('d', '2026-01-01T00:00:00.001Z', 'x'),
  ];

  it('orders newest first, and objects created in the same millisecond by name', () => {
    expect(firstPage(objects, undefined, 10)).toEqual({ names: ['c', 'a', 'b', 'd'], total: 4 });
  });

  it('cuts the page but counts every match', () => {
    expect(firstPage(objects, undefined, 2)).toEqual({ names: ['c', 'a'], total: 4 });
  });

  it('keeps only the objects with the label value', () => {
    expect(firstPage(objects, group('x'), 2)).toEqual({ names: ['c', 'b'], total: 3 });
    expect(firstPage(objects, group('z'), 2)).toEqual({ names: [], total: 0 });
  });

  it('agrees with sorting every match, whatever order the objects come in', () => {
    const many: ApiObject[] = [];
    for (let i = 0; i < 500; i++) {
      // A scrambled order with many shared timestamps.
      const n = (i * 7919) % 500;
      many.push(
        object(
          `p-${String(n).padStart(3, '0')}`,
          `2026-01-01T00:00:00.${String(n % 37).padStart(3, '0')}Z`,
          `g${n % 5}`,
        ),
      );
    }
    const sorted = many
      .filter((o) => o.metadata.labels?.group === 'g3')
      .sort(
        (a, b) =>
          (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '') ||
          ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1),
      );
    expect(firstPage(many, group('g3'), 20)).toEqual({
      names: sorted.slice(0, 20).map((o) => o.metadata.name),
      total: sorted.length,
    });
  });

  it('returns an empty page for a page size of 0', () => {
    expect(firstPage(objects, undefined, 0)).toEqual({ names: [], total: 4 });
  });
});
