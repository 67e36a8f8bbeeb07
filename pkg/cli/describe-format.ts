import yaml from 'js-yaml';
import type { ApiObject } from '../api/object';
import { isPlainObject } from '../api/plain-object';

/** A condition as `status.conditions` holds it (Kubernetes' shape). */
interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/**
 * An object as `svcctl describe` prints it: its name and kind, metadata a person reads (labels,
 * annotations, creation and deletion, finalizers, owners), then every other top-level field
 * (`spec`, `status`, a Role's `rules` …) as indented YAML, and `status.conditions` as a table.
 * `now` is when "ago" is measured from.
 */
export function describeObject(object: ApiObject, now = new Date()): string {
  const lines = metadataFields(object, now).map(([label, value]) => `${`${label}:`.padEnd(LABEL_WIDTH)}${value}`);
  return `${lines.join('\n')}\n${bodyFields(object)}${conditionsOf(object)}`;
}

/** The metadata lines, as label and value. */
function metadataFields(object: ApiObject, now: Date): [string, string][] {
  const m = object.metadata ?? {};
  return [
    ['Name', m.name ?? ''],
    ['Kind', `${object.kind ?? ''} (${object.apiVersion ?? ''})`],
    ['Labels', keyValues(m.labels)],
    ['Annotations', keyValues(m.annotations)],
    ...lifecycleFields(m, now),
    ['Resource Version', m.resourceVersion ?? ''],
    ['UID', m.uid ?? ''],
  ];
}

/** Creation, deletion (when marked), finalizers and owners (when any). */
function lifecycleFields(m: NonNullable<ApiObject['metadata']>, now: Date): [string, string][] {
  const owners = (m as { ownerReferences?: { kind?: string; name?: string }[] }).ownerReferences ?? [];
  const fields: [string, string][] = [['Created', when(m.creationTimestamp, now)]];
  if (m.deletionTimestamp) fields.push(['Deleting', `since ${when(m.deletionTimestamp, now)}`]);
  fields.push(['Finalizers', m.finalizers?.length ? m.finalizers.join(', ') : '<none>']);
  if (owners.length) fields.push(['Owners', owners.map((o) => `${o.kind ?? ''}/${o.name ?? ''}`).join(', ')]);
  return fields;
}

const LABEL_WIDTH = 18;

/** `k=v` per line, continuation lines under the first; `<none>` for none. */
function keyValues(map: Record<string, string> | undefined): string {
  const entries = Object.entries(map ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return '<none>';
  return entries.map(([k, v]) => `${k}=${v}`).join(`\n${' '.repeat(LABEL_WIDTH)}`);
}

/** A timestamp and how long ago it was, e.g. `2026-11-25T04:00:00.000Z (5m ago)`. */
function when(timestamp: string | undefined, now: Date): string {
  if (!timestamp) return '<unknown>';
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(timestamp)) / 1000));
  return Number.isNaN(seconds) ? timestamp : `${timestamp} (${age(seconds)} ago)`;
}

/** kubectl's short durations: 42s, 5m, 3h, 2d. */
export function age(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 172800) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86400)}d`;
}

/** Every top-level field but the type and metadata, as `Spec:` and its YAML indented under it. */
function bodyFields(object: ApiObject): string {
  const rest = Object.entries(object).filter(([key]) => !['apiVersion', 'kind', 'metadata'].includes(key));
  return rest
    .map(([key, value]) => {
      const shown = key === 'status' ? withoutConditions(value) : value;
      if (isEmpty(shown)) return '';
      const text = yaml.dump(shown, { lineWidth: 120, noRefs: true }).trimEnd();
      return `${capitalise(key)}:\n${text.replace(/^/gm, '  ')}\n`;
    })
    .join('');
}

function withoutConditions(status: unknown): unknown {
  if (!isPlainObject(status)) return status;
  const { conditions: _conditions, ...rest } = status;
  return rest;
}

const isEmpty = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  (typeof value === 'object' && Object.keys(value as Record<string, unknown>).length === 0);

const capitalise = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1);

/** `status.conditions` as a table: TYPE, STATUS, REASON, MESSAGE, LAST TRANSITION. */
function conditionsOf(object: ApiObject): string {
  const conditions = (object as { status?: { conditions?: Condition[] } }).status?.conditions;
  if (!Array.isArray(conditions) || conditions.length === 0) return '';
  const rows = [
    ['TYPE', 'STATUS', 'REASON', 'MESSAGE', 'LAST TRANSITION'],
    ...conditions.map((c) => [c.type, c.status, c.reason, c.message, c.lastTransitionTime].map((v) => v ?? '')),
  ];
  const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => row[col].length)));
  const lines = rows.map((row) => `  ${row.map((cell, col) => cell.padEnd(widths[col])).join('   ')}`.trimEnd());
  return `Conditions:\n${lines.join('\n')}\n`;
}
