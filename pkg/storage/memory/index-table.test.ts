import { IndexTable } from './index-table';

const table = () => new IndexTable({ name: 'spec.tags', indexFunc: () => undefined });

describe('IndexTable', () => {
  it('answers which objects hold a value, and each object its values in byte order', () => {
    const t = table();
    t.set('ada', ['red', 'blue', 'red']);
    t.set('bob', ['red']);
    expect([...t.namesWith('red')].sort()).toEqual(['ada', 'bob']);
    expect([...t.namesWith('blue')]).toEqual(['ada']);
    expect([...t.namesWith('green')]).toEqual([]);
    expect(t.valuesOf('ada')).toEqual(['blue', 'red']);
    expect(t.valuesOf('nobody')).toBeUndefined();
  });

  it('loaded in one go, answers like one filled object by object, and takes later changes', () => {
    const objects = Array.from({ length: 3000 }, (_, i) => ({
      name: `o${(i * 7919) % 3000}`,
      values: i % 5 === 0 ? [] : [`v${i % 37}`, `v${i % 11}`, `v${i % 37}`],
    }));
    const loaded = table();
    loaded.load(objects);
    const oneByOne = table();
    for (const { name, values } of objects) oneByOne.set(name, values);
    for (const t of [loaded, oneByOne]) {
      t.set('o7', ['new']);
      t.delete('o8');
      t.set('extra', ['v3']);
    }
    expect([...loaded.entries.ascendingFrom()]).toEqual([...oneByOne.entries.ascendingFrom()]);
    expect([...loaded.entries.descending()]).toEqual([...oneByOne.entries.descending()]);
    expect([...loaded.namesWith('v3')].sort()).toEqual([...oneByOne.namesWith('v3')].sort());
    expect([...loaded.namesWithoutValue()].sort()).toEqual([...oneByOne.namesWithoutValue()].sort());
    expect(loaded.valuesOf('o9')).toEqual(oneByOne.valuesOf('o9'));
  });

  it("replacing an object's values removes the old ones everywhere", () => {
    const t = table();
    t.set('ada', ['red', 'blue']);
    t.set('ada', ['green']);
    expect([...t.namesWith('red')]).toEqual([]);
    expect([...t.namesWith('green')]).toEqual(['ada']);
    expect(t.entries.length).toBe(1);
    expect([...t.entries.ascendingFrom()]).toEqual([{ value: 'green', name: 'ada' }]);
  });

  it('tracks objects without a value, which sorts need to place last', () => {
    const t = table();
    t.set('ada', []);
    t.set('bob', ['x']);
    expect([...t.namesWithoutValue()]).toEqual(['ada']);
    t.set('ada', ['y']);
    t.set('bob', []);
    expect([...t.namesWithoutValue()]).toEqual(['bob']);
    expect(t.has('bob')).toBe(true);
  });

  it('finds every holder of a value with a prefix (label existence) and no other', () => {
    const t = table();
    t.set('a', ['app=web']);
    t.set('b', ['app=api', 'tier=db']);
    t.set('c', ['apple=1']);
    t.set('d', ['tier=web']);
    expect([...t.namesWithPrefix('app=')].sort()).toEqual(['a', 'b']);
    expect([...t.namesWithPrefix('tier=')].sort()).toEqual(['b', 'd']);
    expect([...t.namesWithPrefix('zone=')]).toEqual([]);
  });

  it('forgets a deleted object completely', () => {
    const t = table();
    t.set('ada', ['red']);
    t.set('bob', []);
    t.delete('ada');
    t.delete('bob');
    expect(t.has('ada')).toBe(false);
    expect([...t.namesWith('red')]).toEqual([]);
    expect([...t.namesWithoutValue()]).toEqual([]);
    expect(t.entries.length).toBe(0);
  });

  it('addMany (a build batch) leaves objects alone that a write already indexed', () => {
    const t = table();
    t.set('ada', ['new']);
    t.addMany([
      { name: 'ada', values: ['old'] },
      { name: 'bob', values: ['b', 'a'] },
      { name: 'cy', values: [] },
    ]);
    expect(t.valuesOf('ada')).toEqual(['new']);
    expect([...t.namesWith('old')]).toEqual([]);
    expect(t.valuesOf('bob')).toEqual(['a', 'b']);
    expect([...t.namesWithoutValue()]).toEqual(['cy']);
    expect(t.entries.length).toBe(3);
  });
});
