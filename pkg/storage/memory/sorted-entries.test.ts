import { compareEntries, SortedEntries, type IndexEntry } from './sorted-entries';
import { seededRandom } from '../testing/seeded-random';

const ascending = (s: SortedEntries): IndexEntry[] => [...s.ascendingFrom()];

describe('SortedEntries', () => {
  it('keeps entries ordered by value, then name, without duplicates', () => {
    const s = new SortedEntries();
    s.insert({ value: 'b', name: 'x' });
    s.insert({ value: 'a', name: 'y' });
    s.insert({ value: 'b', name: 'a' });
    s.insert({ value: 'a', name: 'y' });
    expect(ascending(s)).toEqual([
      { value: 'a', name: 'y' },
      { value: 'b', name: 'a' },
      { value: 'b', name: 'x' },
    ]);
    expect([...s.descending()]).toEqual([
      { value: 'b', name: 'x' },
      { value: 'b', name: 'a' },
      { value: 'a', name: 'y' },
    ]);
    expect(s.length).toBe(3);
  });

  it('removes only the exact (value, name) entry', () => {
    const s = new SortedEntries();
    s.insert({ value: 'a', name: 'x' });
    s.insert({ value: 'a', name: 'y' });
    s.remove({ value: 'a', name: 'z' });
    s.remove({ value: 'b', name: 'x' });
    s.remove({ value: 'a', name: 'x' });
    expect(ascending(s)).toEqual([{ value: 'a', name: 'y' }]);
  });

  it('starts an ascending walk at the first value not before the one given (a prefix range)', () => {
    const s = new SortedEntries();
    for (const value of ['app=api', 'app=web', 'tier=db', 'apple=1']) s.insert({ value, name: value });
    expect(ascending(s).map((e) => e.value)).toEqual(['app=api', 'app=web', 'apple=1', 'tier=db']);
    expect([...s.ascendingFrom('app=')].map((e) => e.value)).toEqual(['app=api', 'app=web', 'apple=1', 'tier=db']);
    expect([...s.ascendingFrom('tier=')].map((e) => e.value)).toEqual(['tier=db']);
    expect([...s.ascendingFrom('zzz')]).toEqual([]);
  });

  it('matches a plain sorted list through random inserts and removals that split and empty blocks', () => {
    const rnd = seededRandom(3);
    const s = new SortedEntries(4);
    let reference: IndexEntry[] = [];
    for (let step = 0; step < 3000; step++) {
      const entry = { value: String(rnd.int(30)), name: `n${rnd.int(20)}` };
      const present = reference.some((e) => compareEntries(e, entry) === 0);
      if (rnd.next() < 0.6) {
        s.insert(entry);
        if (!present) reference = [...reference, entry].sort(compareEntries);
      } else {
        s.remove(entry);
        reference = reference.filter((e) => compareEntries(e, entry) !== 0);
      }
      if (step % 100 === 0 || step === 2999) {
        expect(ascending(s)).toEqual(reference);
        expect([...s.descending()]).toEqual([...reference].reverse());
        const from = String(rnd.int(30));
        expect([...s.ascendingFrom(from)]).toEqual(reference.filter((e) => e.value >= from));
        expect([...s.descendingFrom(from)]).toEqual(reference.filter((e) => e.value <= from).reverse());
      }
      expect(s.length).toBe(reference.length);
    }
  });
});
