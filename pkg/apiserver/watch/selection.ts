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
    return this.matches(object.metadata.name ?? '', (index) => {
      const spec = this.specs.get(index);
      return spec ? sharedIndexValues(spec, object) : [];
    });
  }

  /** Whether a state given by its index values matched. */
  matchesValues(name: string, values: IndexValueMap): boolean {
    return this.matches(name, (index) => values[index] ?? []);
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

  private matches(name: string, valuesOf: (index: string) => string[]): boolean {
    if (this.names && !this.names.has(name)) return false;
    if (!requirementsHold(this.labels, this.fields, valuesOf)) return false;
    return this.anyOf === undefined || this.anyOf.some((c) => requirementsHold(c.labels, c.fields, valuesOf));
  }
}

function requirementsHold(
  labelReqs: readonly LabelRequirement[],
  fieldReqs: readonly FieldRequirement[],
  valuesOf: (index: string) => string[],
): boolean {
  if (labelReqs.length) {
    const labels = labelsOf(valuesOf(LABELS_INDEX));
    if (!labelReqs.every((r) => labelMatches(labels, r))) return false;
  }
  return fieldReqs.every((r) => fieldMatches(valuesOf(r.field), r));
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
