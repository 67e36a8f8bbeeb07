import type { ApiObject } from '../api/object';
import { labelsMatch } from '../api/selector-match';
import { parseLabelSelector } from '../api/selectors';
import type { ObjectStore } from '../cache/object-store';
import type { DeepReadonly } from '../util/deep-freeze';

/**
 * A read-only view of an informer's objects, kept current by its watch.
 * Objects are frozen: copy one (`copyOf`) before changing it.
 * @example
 * const ada = persons.get('ada'); // DeepReadonly<Person> | undefined
 * const web = persons.list('app=web');
 */
export interface ReadonlyCache<T extends ApiObject = ApiObject> {
  /** The object of that name, or undefined. */
  get(name: string): DeepReadonly<T> | undefined;
  /** Every object, or those matching a label selector (e.g. `app=web,tier!=db`), sorted by name. */
  list(labelSelector?: string): DeepReadonly<T>[];
  /** How many objects the cache holds. */
  size(): number;
}

/** An informer's store as its ReadonlyCache: the informer's reflector keeps the objects in it frozen. */
export class ObjectCache<T extends ApiObject = ApiObject> implements ReadonlyCache<T> {
  constructor(private readonly store: ObjectStore<T>) {}

  get(name: string): DeepReadonly<T> | undefined {
    return this.store.get(name) as DeepReadonly<T> | undefined;
  }

  list(labelSelector?: string): DeepReadonly<T>[] {
    const requirements = labelSelector ? parseLabelSelector([labelSelector]) : [];
    const all = [...this.store.values()].filter((o) =>
      labelsMatch(o.metadata.labels as Record<string, string> | undefined, requirements),
    );
    return all.sort((a, b) => nameOf(a).localeCompare(nameOf(b))) as DeepReadonly<T>[];
  }

  size(): number {
    return this.store.size();
  }
}

const nameOf = (o: ApiObject): string => o.metadata.name ?? '';
