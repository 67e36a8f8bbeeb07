import type { DeepReadonly } from '../../pkg/controller';
import type { PersonSpec, PersonStatus } from './person';

/** The age from which a Person is an `Adult`. */
export const ADULT_AGE = 18;

/**
 * The status a Person's spec calls for. Pure: the reconciler's decisions live
 * here, where a table of cases tests them without a server.
 * @example personStatus({ age: 36, tags: ['math', 'poetry'] }) // {phase: 'Adult', message: '2 tags'}
 */
export function personStatus(spec: DeepReadonly<PersonSpec>): PersonStatus {
  return { phase: phaseOf(spec.age), message: tagCount(spec.tags ?? []) };
}

function phaseOf(age: number | undefined): PersonStatus['phase'] {
  if (age === undefined) return 'Unknown';
  return age >= ADULT_AGE ? 'Adult' : 'Minor';
}

// Tags are a set to their owner: a repeated tag is counted once.
function tagCount(tags: readonly string[]): string {
  const count = new Set(tags).size;
  if (count === 0) return 'no tags';
  return count === 1 ? '1 tag' : `${count} tags`;
}
