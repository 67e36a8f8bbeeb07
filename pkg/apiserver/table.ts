import type { ApiObject } from '../api/object';
import type { Model, PrinterColumn } from '../registry/model';
import { parseAccept } from '../util/accept';

/**
 * Kubernetes' server-side printing: a `meta.k8s.io/v1` Table of a model's
 * printer columns, which `kubectl get` asks for first (docs/kubectl.md).
 */

/** Whether the client asked for a Table: `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`. */
export function wantsTable(accept: string | undefined): boolean {
  return parseAccept(accept).some((range) => range.params.as === 'Table' && range.params.g === 'meta.k8s.io');
}

/** The Table of some objects; `includeObject` is Kubernetes' `?includeObject=None|Metadata|Object` (default Metadata). */
export function toTable(
  model: Model,
  objects: ApiObject[],
  resourceVersion: string | undefined,
  includeObject: string | null,
) {
  // As for a CRD: Name first, then the model's columns, or Age when it declares none.
  const columns: PrinterColumn[] = [
    { name: 'Name', type: 'string', jsonPath: '.metadata.name', description: 'Name of the object' },
    ...(model.printerColumns?.length
      ? model.printerColumns
      : [
          {
            name: 'Age',
            type: 'date' as const,
            jsonPath: '.metadata.creationTimestamp',
            description: 'Time since creation',
          },
        ]),
  ];
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: resourceVersion ? { resourceVersion } : {},
    columnDefinitions: columns.map((c) => ({
      name: c.name,
      type: c.type === 'date' ? 'string' : c.type,
      format: c.name === 'Name' ? 'name' : c.type === 'date' ? 'date' : '',
      description: c.description ?? '',
      priority: 0,
    })),
    rows: objects.map((o) => ({ cells: columns.map((c) => cell(c, o)), object: rowObject(o, includeObject) })),
  };
}

function rowObject(object: ApiObject, includeObject: string | null): unknown {
  if (includeObject === 'None') return undefined;
  if (includeObject === 'Object') return object;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata };
}

function cell(column: PrinterColumn, object: ApiObject): unknown {
  const value = readPath(object, column.jsonPath);
  if (value === undefined || value === null) return column.type === 'date' ? '<unknown>' : null;
  if (column.type === 'date')
    return typeof value === 'string' ? humanAge(Date.now() - Date.parse(value)) : String(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

/**
 * The simple JSON paths printer columns use, as kubectl reads them: `.spec.age`,
 * `.spec.tags[0]`, `.subjects[*].name` (every element: the values joined by
 * commas), and `\.` for a dot inside a key (`.metadata.annotations.example\.com/x`).
 */
function readPath(object: unknown, path: string): unknown {
  let current: unknown[] = [object];
  let many = false;
  for (const step of pathSteps(path)) {
    current = current.flatMap((value) => stepInto(value, step));
    if (step === '*') many = true;
  }
  if (!many) return current[0];
  return current.length
    ? current.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(',')
    : undefined;
}

/** What one step of a path reaches from `value`: an array's elements for `*`, else the member (none if absent). */
function stepInto(value: unknown, step: string): unknown[] {
  if (value === null || typeof value !== 'object') return [];
  if (step === '*') return Array.isArray(value) ? value : [];
  const field = (value as Record<string, unknown>)[step];
  return field === undefined ? [] : [field];
}

/** `.a.b\.c[0][*]` → `['a', 'b.c', '0', '*']`. */
function pathSteps(path: string): string[] {
  const steps: string[] = [];
  let current = '';
  const flush = () => {
    if (current !== '') steps.push(current);
    current = '';
  };
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === '\\' && i + 1 < path.length) current += path[++i];
    else if (c === '.') flush();
    else if (c === '[') {
      flush();
      const end = path.indexOf(']', i);
      if (end < 0) break;
      steps.push(path.slice(i + 1, end));
      i = end;
    } else current += c;
  }
  flush();
  return steps;
}

/** Kubernetes' short durations: `45s`, `12m`, `5h`, `3d`, `2y`. */
export function humanAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 120) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (d < 730) return `${d}d`;
  return `${Math.floor(d / 365)}y`;
}
