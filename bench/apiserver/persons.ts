/** Where Models are registered (the Person model, from its manifest). */
export const MODELS_PATH = '/apis/apiextensions.svc.run/v1alpha1/models';

/** Where the Person model's API lives on the apiserver. */
export const PERSONS_PATH = '/apis/example.com/v1alpha1/persons';

/** The storage type of Persons (`<plural>.<group>`), as the backend keys it. */
export const PERSONS_TYPE = 'persons.example.com';

/** The annotation a watch benchmark stamps each write with: the writer's `performance.now()` at sending. */
export const SENT_AT_ANNOTATION = 'bench.example.com/sent-at';

const TEAMS = ['engines', 'poetry', 'looms', 'optics'];
const TAGS = ['math', 'poetry', 'music', 'chess', 'weaving', 'optics', 'logic'];

/**
 * The JSON body that creates Person `name`: labels, a spec with every
 * indexed field, and, when `sentAt` is given, the send-time annotation.
 * Varied by `seed` so that the indexes hold many values.
 *
 * @example personBody('p-1', 1) // '{"apiVersion":"example.com/v1alpha1","kind":"Person","metadata":{"name":"p-1",…'
 */
export function personBody(name: string, seed: number, sentAt?: number): string {
  const metadata: Record<string, unknown> = { name, labels: { team: TEAMS[seed % TEAMS.length] } };
  if (sentAt !== undefined) metadata.annotations = { [SENT_AT_ANNOTATION]: sentAt.toFixed(3) };
  return JSON.stringify({
    apiVersion: 'example.com/v1alpha1',
    kind: 'Person',
    metadata,
    spec: {
      name: `Person number ${seed}`,
      age: seed % 120,
      gender: seed % 2 === 0 ? 'FEMALE' : 'MALE',
      tags: [TAGS[seed % TAGS.length], TAGS[(seed * 3 + 1) % TAGS.length]],
    },
  });
}

/** The name of the `i`-th Person the benchmark loads before measuring: `p-0`, `p-1`, … */
export const loadedName = (i: number): string => `p-${i}`;
