import type { ApiObject } from '../api/object';
import { labelsMatch } from '../api/selector-match';
import { parseLabelSelector } from '../api/selectors';
import { deepFreeze, type DeepReadonly } from '../util/deep-freeze';

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

/** The informer's side of a cache: the only code that changes it. */
export class ObjectCache<T extends ApiObject = ApiObject> implements ReadonlyCache<T> {
  private objects = new Map<string, DeepReadonly<T>>();

  get(name: string): DeepReadonly<T> | undefined {
    return this.objects.get(name);
  }

  list(labelSelector?: string): DeepReadonly<T>[] {
    const requirements = labelSelector ? parseLabelSelector([labelSelector]) : [];
    const all = [...this.objects.values()].filter((o) =>
      labelsMatch(o.metadata.labels as Record<string, string> | undefined, requirements),
    );
    return all.sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
  }

  size(): number {
    return this.objects.size;
  }

  /** Every name the cache holds. */
  names(): string[] {
    return [...this.objects.keys()];
  }

  /** Stores (and freezes) an object; answers the one it replaced. */
  put(object: T): { object: DeepReadonly<T>; previous: DeepReadonly<T> | undefined } {
    const frozen = deepFreeze(object);
    const name = nameOf(frozen);
    const previous = this.objects.get(name);
    this.objects.set(name, frozen);
    return { object: frozen, previous };
  }

  /** Removes an object; answers the one removed. */
  remove(name: string): DeepReadonly<T> | undefined {
    const previous = this.objects.get(name);
    this.objects.delete(name);
    return previous;
  }
}

const nameOf = (o: DeepReadonly<ApiObject>): string => o.metadata.name ?? '';
