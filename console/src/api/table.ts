import { api } from './client';

/** Kubernetes' server-side Table: the model's printer columns, one row per object. */
export interface Table {
  columnDefinitions: { name: string; type: string; description?: string }[];
  rows: { cells: unknown[]; object?: { metadata?: { name?: string; deletionTimestamp?: string } } }[];
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
}

/** What narrows and orders a page of a model's objects. */
export interface TableQuery {
  labelSelector: string;
  fieldSelector: string;
  sort: string;
  limit: number;
  continueToken?: string;
}

const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json';

/** The list URL of one page: paged with `limit`/`continue`, so a large collection is never read whole. */
export function tableUrl(collection: string, query: TableQuery): string {
  const params = new URLSearchParams({ limit: String(query.limit) });
  if (query.labelSelector.trim()) params.set('labelSelector', query.labelSelector.trim());
  if (query.fieldSelector.trim()) params.set('fieldSelector', query.fieldSelector.trim());
  if (query.sort.trim()) params.set('sort', query.sort.trim());
  if (query.continueToken) params.set('continue', query.continueToken);
  return `${collection}?${params}`;
}

export const fetchTable = (collection: string, query: TableQuery) =>
  api<Table>('GET', tableUrl(collection, query), { accept: TABLE_ACCEPT });

/** A cell as text: objects as JSON, nothing as empty. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
