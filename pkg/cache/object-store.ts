import type { ApiObject } from '../api/object';

/**
 * One change a store made, as its subscribers hear of it. `deleted.last` is the object's last known state: the
 * watch's DELETED object, or what the store held when a relist found it gone.
 */
export type StoreChange<T> =
  | { type: 'added'; name: string; object: T }
  | { type: 'updated'; name: string; previous: T; object: T }
  | { type: 'deleted'; name: string; previous: T; last: T };

const nameOf = (object: ApiObject): string => object.metadata.name ?? '';

/**
 * The objects a reflector holds, by name, and the one place they change. An object whose `resourceVersion` is
 * the one held already changes nothing (a relist of an object that did not change is no update). `keep` turns
 * what is stored into what is held, e.g. a frozen object.
 */
export class ObjectStore<T extends ApiObject> {
  private readonly objects = new Map<string, T>();

  constructor(private readonly keep: (object: T) => T = (object) => object) {}

  get(name: string): T | undefined {
    return this.objects.get(name);
  }

  values(): IterableIterator<T> {
    return this.objects.values();
  }

  size(): number {
    return this.objects.size;
  }

  /** Stores an object (an add or an update); undefined when it is what the store holds already. */
  put(object: T): StoreChange<T> | undefined {
    const name = nameOf(object);
    const previous = this.objects.get(name);
    const version = object.metadata.resourceVersion;
    if (previous && version !== undefined && previous.metadata.resourceVersion === version) return undefined;
    const kept = this.keep(object);
    this.objects.set(name, kept);
    return previous ? { type: 'updated', name, previous, object: kept } : { type: 'added', name, object: kept };
  }

  /** Removes an object, `last` being its final state; undefined when the store did not hold it. */
  delete(last: T): StoreChange<T> | undefined {
    const name = nameOf(last);
    const previous = this.objects.get(name);
    if (!previous) return undefined;
    this.objects.delete(name);
    return { type: 'deleted', name, previous, last: this.keep(last) };
  }

  /** Makes the store hold exactly `items` (a list's answer); answers what changed. */
  replace(items: readonly T[]): StoreChange<T>[] {
    const changes: StoreChange<T>[] = [];
    const listed = new Set<string>();
    for (const item of items) {
      listed.add(nameOf(item));
      const change = this.put(item);
      if (change) changes.push(change);
    }
    for (const [name, previous] of [...this.objects]) {
      if (listed.has(name)) continue;
      this.objects.delete(name);
      changes.push({ type: 'deleted', name, previous, last: previous });
    }
    return changes;
  }
}
