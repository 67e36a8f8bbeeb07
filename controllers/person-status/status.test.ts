import type { PersonSpec, PersonStatus } from './person';
import { personStatus } from './status';

describe('personStatus', () => {
  const cases: [string, PersonSpec, PersonStatus][] = [
    ['an adult with two tags', { age: 36, tags: ['math', 'poetry'] }, { phase: 'Adult', message: '2 tags' }],
    ['exactly 18 is adult', { age: 18, tags: ['a'] }, { phase: 'Adult', message: '1 tag' }],
    ['17 is minor', { age: 17 }, { phase: 'Minor', message: 'no tags' }],
    ['age 0 is minor, not unknown', { age: 0, tags: [] }, { phase: 'Minor', message: 'no tags' }],
    ['no age is unknown', { name: 'Nobody' }, { phase: 'Unknown', message: 'no tags' }],
    ['a repeated tag counts once', { age: 150, tags: ['x', 'y', 'x'] }, { phase: 'Adult', message: '2 tags' }],
  ];

  it.each(cases)('%s', (_title, spec, expected) => {
    expect(personStatus(spec)).toEqual(expected);
  });

  it('does not change the spec it reads', () => {
    const spec = Object.freeze({ age: 3, tags: Object.freeze(['b', 'a']) });
    expect(personStatus(spec)).toEqual({ phase: 'Minor', message: '2 tags' });
    expect(spec.tags).toEqual(['b', 'a']);
  });
});
