import type { ApiObject } from '../../api/object';
import { indexValues, LABELS_INDEX, type IndexSpec } from '../../storage/indexes';
import { fieldMatches, labelMatches } from '../../storage/match';
import type { FieldRequirement, LabelRequirement } from '../../storage/query';
import type { WatchEvent, WatchEventType } from '../../storage/watch';

/** Index name → sorted values, as storage computes them. */
export type IndexValueMap = Record<string, string[]>;

/**
 * A watch's selectors, evaluated on index values so that an object's state
 * before a change (which storage reports only as index values) can be
 * judged as well as its state after.
 */
export class Selection {
  private readonly specs: Map<string, IndexSpec>;

  constructor(
    indexes: IndexSpec[],
    private readonly labels: LabelRequirement[] = [],
    private readonly fields: FieldRequirement[] = [],
    /** RBAC `resourceNames`: when set, only these objects are visible. */
    private readonly names?: ReadonlySet<string>,
    /** RBAC conditions: when set, only objects matching one of them are visible. */
    private readonly anyOf?: readonly { labels: LabelRequirement[]; fields: FieldRequirement[] }[],
  ) {
    this.specs = new Map(indexes.map((s) => [s.name, s]));
  }

  /** Whether the object's current state matches. */
  matchesObject(object: ApiObject): boolean {
    return this.matches(object.metadata.name ?? '', object, undefined);
  }

  /** Whether a state given by its index values matched. */
  matchesValues(name: string, values: IndexValueMap): boolean {
    return this.matches(name, undefined, values);
  }

  /**
   * What a watcher with these selectors is told about a storage event, with
   * enter/leave semantics (docs/api.md): an object that starts matching is
   * ADDED, one that stops matching is DELETED, one that never matched is
   * not mentioned (`undefined`).
   */
  translate(event: WatchEvent): WatchEventType | undefined {
    const now = this.matchesObject(event.object);
    if (event.type !== 'MODIFIED') return now ? event.type : undefined;
    const before = event.previousIndexValues
      ? this.matchesValues(event.object.metadata.name ?? '', event.previousIndexValues)
      : now;
    if (before && now) return 'MODIFIED';
    if (now) return 'ADDED';
    if (before) return 'DELETED';
    return undefined;
  }

  // Every watcher of a type judges every event of it: the checks below are plain loops over a state given either
  // as an object or as index values, so that a judgement allocates nothing.
  private matches(name: string, object: ApiObject | undefined, values: IndexValueMap | undefined): boolean {
    if (this.names && !this.names.has(name)) return false;
    if (!this.holds(this.labels, this.fields, object, values)) return false;
    if (this.anyOf === undefined) return true;
    for (const condition of this.anyOf) if (this.holds(condition.labels, condition.fields, object, values)) return true;
    return false;
  }

  private holds(
    labelReqs: readonly LabelRequirement[],
    fieldReqs: readonly FieldRequirement[],
    object: ApiObject | undefined,
    values: IndexValueMap | undefined,
  ): boolean {
    if (labelReqs.length) {
      const labels = labelsOf(this.valuesOf(LABELS_INDEX, object, values));
      for (const r of labelReqs) if (!labelMatches(labels, r)) return false;
    }
    for (const r of fieldReqs) if (!fieldMatches(this.valuesOf(r.field, object, values), r)) return false;
    return true;
  }

  /** The state's values of one index: from the object (worked out once per object), or as given. */
  private valuesOf(index: string, object: ApiObject | undefined, values: IndexValueMap | undefined): string[] {
    if (values !== undefined) return values[index] ?? [];
    const spec = this.specs.get(index);
    return spec && object ? sharedIndexValues(spec, object) : [];
  }
}

/**
 * An event's object is judged by every watcher of its type: its index values are worked out once per object and
 * index spec, and its labels once per values list. Neither may be changed.
 */
const objectValues = new WeakMap<ApiObject, Map<IndexSpec, string[]>>();
const labelMaps = new WeakMap<string[], Record<string, string>>();

function sharedIndexValues(spec: IndexSpec, object: ApiObject): string[] {
  let byIndex = objectValues.get(object);
  if (byIndex === undefined) objectValues.set(object, (byIndex = new Map()));
  let values = byIndex.get(spec);
  if (values === undefined) byIndex.set(spec, (values = indexValues(spec, object)));
  return values;
}

function labelsOf(entries: string[]): Record<string, string> {
  let labels = labelMaps.get(entries);
  if (labels === undefined) labelMaps.set(entries, (labels = Object.fromEntries(entries.map(splitLabel))));
  return labels;
}

function splitLabel(entry: string): [string, string] {
  const at = entry.indexOf('=');
  return [entry.slice(0, at), entry.slice(at + 1)];
}
