import yaml from 'js-yaml';
import type { ApiObject } from '../api/object';
import { UsageError } from './errors';
import { evaluateJsonPath, parseJsonPath, type JsonPathTemplate } from './jsonpath';

/** `-o` of `get`: table (the default), wide, yaml, json, name, or jsonpath=TEMPLATE. */
export type OutputFormat =
  { kind: 'table' | 'wide' | 'yaml' | 'json' | 'name' } | { kind: 'jsonpath'; template: JsonPathTemplate };

/** Parses `-o`, a jsonpath template included (refused before any request when svcctl cannot read it); else UsageError. */
export function parseOutput(value: string | undefined): OutputFormat {
  if (!value) return { kind: 'table' };
  if (['table', 'wide', 'yaml', 'json', 'name'].includes(value)) return { kind: value as 'table' };
  const jsonpath = /^jsonpath=(.*)$/s.exec(value);
  if (jsonpath) return { kind: 'jsonpath', template: parseJsonPath(jsonpath[1] ?? '') };
  throw new UsageError(`unknown output format "${value}" (want table, wide, yaml, json, name or jsonpath=TEMPLATE)`);
}

/** The Accept of a request for the server's Table, plain JSON as the fallback. */
export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json';

/** The server's Table (`meta.k8s.io/v1`): column definitions and rows of cells. */
export interface Table {
  kind: 'Table';
  columnDefinitions: { name: string; priority?: number }[];
  rows: { cells: unknown[] }[];
}

/** Kubernetes' `v1` List of several objects, as `-o json|yaml` prints them. */
export function listOf(items: ApiObject[]): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items };
}

/** A Table as text: upper-case headers, columns padded apart by three spaces; `wide` adds the priority > 0 columns. */
export function renderTable(table: Table, wide: boolean): string {
  const layout = tableLayout(table, wide);
  return [layout.header, ...layout.rows].map((line) => tableLine(line, layout.widths)).join('\n') + '\n';
}

/** A Table's shown columns (by index), its header and row texts, and each column's width. */
export interface TableLayout {
  columns: number[];
  header: string[];
  rows: string[][];
  widths: number[];
}

/** How renderTable lays a Table out; `get -w` prints later rows with the same columns and widths. */
export function tableLayout(table: Table, wide: boolean): TableLayout {
  const columns = table.columnDefinitions
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => wide || !c.priority)
    .map(({ i }) => i);
  const header = columns.map((i) => table.columnDefinitions[i]?.name.toUpperCase() ?? '');
  const rows = table.rows.map((row) => rowTexts(row.cells, columns));
  const widths = columns.map((_, col) => Math.max(...[header, ...rows].map((line) => line[col]?.length ?? 0)));
  return { columns, header, rows, widths };
}

/** The texts of a row's shown cells. */
export function rowTexts(cells: unknown[], columns: number[]): string[] {
  return columns.map((i) => cellText(cells[i]));
}

/** One line of a table: each text but the last padded to its column's width, three spaces apart. */
export function tableLine(texts: string[], widths: number[]): string {
  return texts
    .map((text, col) => (col === texts.length - 1 ? text : text.padEnd(widths[col] ?? 0)))
    .join('   ')
    .trimEnd();
}

/** A Table made from objects when the server answered plain JSON: NAME and AGE. */
export function fallbackTable(objects: ApiObject[], now = Date.now()): Table {
  return {
    kind: 'Table',
    columnDefinitions: [{ name: 'Name' }, { name: 'Age' }],
    rows: objects.map((o) => ({ cells: [o.metadata?.name ?? '', ageOf(o.metadata?.creationTimestamp, now)] })),
  };
}

/** The document `-o json|yaml|jsonpath` prints, as text. */
export function renderDocument(value: unknown, format: OutputFormat): string {
  if (format.kind === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  if (format.kind === 'yaml') return yaml.dump(value, { lineWidth: -1, noRefs: true });
  if (format.kind === 'jsonpath') return evaluateJsonPath(value, format.template);
  throw new Error(`${format.kind} is not a document format`);
}

function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '<none>';
  return typeof cell === 'object' ? JSON.stringify(cell) : String(cell);
}

function ageOf(timestamp: string | undefined, now: number): string {
  if (!timestamp) return '<unknown>';
  const s = Math.max(0, Math.floor((now - Date.parse(timestamp)) / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.floor(s / 60)}m`;
  if (s < 172800) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}
