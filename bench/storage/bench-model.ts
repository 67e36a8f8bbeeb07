import type { ApiObject } from '../../pkg/api/object';
import type { IndexSpec, LabelRequirement } from '../../pkg/storage';

/**
 * The benchmark's model: a Person-like object with three custom indexes,
 * `spec.name`, `spec.tags` (multi-valued) and `spec.age` (zero-padded, so
 * that it sorts as a number), besides the four every type has.
 */

/** The label whose values split the objects into 100 groups of 1% each. */
export const GROUP_LABEL = 'bench.svc.run/group';
/** How many groups GROUP_LABEL has: one label-equality filter matches 1/GROUPS of the objects. */
export const GROUPS = 100;
/** The label-equality filter of the filtered list: one group, 1% of the objects. */
export const ONE_PERCENT_FILTER: LabelRequirement = { key: GROUP_LABEL, op: 'in', values: ['g42'] };

const TAGS = 20;
const TIERS = ['gold', 'silver', 'bronze'];

/** The model's custom indexes. */
export const BENCH_INDEXES: IndexSpec[] = [
  { name: 'spec.name', indexFunc: (o) => specOf(o).name },
  { name: 'spec.tags', indexFunc: (o) => specOf(o).tags },
  { name: 'spec.age', indexFunc: (o) => String(specOf(o).age).padStart(3, '0') },
];

/** The spec of a benchmark object. */
export interface BenchSpec {
  name: string;
  age: number;
  tags: string[];
  email: string;
  bio: string;
}

/** The object's spec, typed (benchmark objects always have one). */
export const specOf = (object: ApiObject): BenchSpec => object.spec as BenchSpec;

/** The name of the `index`-th object, e.g. `person-000042`. */
export const benchName = (index: number): string => `person-${String(index).padStart(6, '0')}`;

/**
 * The `index`-th benchmark object, deterministic: in group `g<index % 100>`,
 * three of twenty tags, an age, and a short biography: about 540 bytes of JSON as stored.
 */
export function benchObject(index: number): ApiObject {
  return {
    apiVersion: 'bench.svc.run/v1',
    kind: 'BenchPerson',
    metadata: {
      name: benchName(index),
      labels: { [GROUP_LABEL]: `g${index % GROUPS}`, 'bench.svc.run/tier': TIERS[index % TIERS.length] },
    },
    spec: {
      name: `Person ${index}`,
      age: index % 100,
      tags: [tag(index), tag(index * 7 + 3), tag(index * 13 + 5)],
      email: `person-${index}@example.com`,
      bio:
        `Person number ${index} is one of many generated for the storage benchmark; ` +
        'this sentence gives the object a realistic size.',
    } satisfies BenchSpec,
  };
}

/**
 * The benchmark's update of an object (pure: storage may call it twice): the
 * age moves on by one and the first tag changes, so every update moves
 * entries of two custom indexes.
 */
export function updatedObject(current: ApiObject, operation: number): ApiObject {
  const spec = specOf(current);
  return {
    ...current,
    spec: { ...spec, age: (spec.age + 1) % 100, tags: [tag(operation + 11), ...spec.tags.slice(1)] },
  };
}

const tag = (n: number): string => `tag-${n % TAGS}`;
