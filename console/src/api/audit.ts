import { api, currentBearerToken } from './client';
import { errorFromResponse } from './errors';
import { AUDIT_EVENTS } from './paths';

/** One audit record: who did what, the answer, and the authoriser's one-line reason. */
export interface AuditEvent {
  metadata: { name: string };
  time: string;
  requestId?: string;
  user: string;
  authenticatedBy?: string;
  tokenName?: string;
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  name?: string;
  path: string;
  code: number;
  decision: 'allow' | 'deny';
  reason: string;
}

/** What the Audit page filters by; empty strings mean "any". `since` is an RFC 3339 time. */
export interface AuditFilter {
  user: string;
  verb: string;
  resource: string;
  decision: string;
  since: string;
}

export const NO_FILTER: AuditFilter = { user: '', verb: '', resource: '', decision: '', since: '' };

/** The query string of a filter (empty fields left out), with any extra parameters. */
export function auditQuery(filter: AuditFilter, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filter, ...extra })) if (value) params.set(key, value);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** One page of records, newest first. */
export async function listAudit(
  filter: AuditFilter,
  limit: number,
  next?: string,
): Promise<{ items: AuditEvent[]; continue?: string }> {
  const answer = await api<{ items: AuditEvent[]; metadata: { continue?: string } }>(
    'GET',
    AUDIT_EVENTS + auditQuery(filter, { limit: String(limit), ...(next ? { continue: next } : {}) }),
  );
  return { items: answer.items, continue: answer.metadata.continue };
}

/** Splits streamed text into complete lines; the unfinished rest stays for the next chunk. */
export function lineSplitter(onLine: (line: string) => void): (chunk: string) => void {
  let rest = '';
  return (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) onLine(line);
  };
}

/**
 * Follows new records that match `filter` (the server streams one JSON watch event per line). `onEnd` is called
 * once when the stream ends by itself (server timeout, network, an error event). Returns what stops it.
 */
export function tailAudit(filter: AuditFilter, onEvent: (event: AuditEvent) => void, onEnd: () => void): () => void {
  const abort = new AbortController();
  const token = currentBearerToken();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const follow = async () => {
    const res = await fetch(AUDIT_EVENTS + auditQuery(filter, { watch: 'true' }), {
      headers,
      credentials: 'omit',
      signal: abort.signal,
    });
    if (!res.ok || !res.body) throw await errorFromResponse(res);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let failed = false;
    const split = lineSplitter((line) => {
      const event = JSON.parse(line) as { type: string; object: AuditEvent };
      if (event.type === 'ADDED') onEvent(event.object);
      else if (event.type === 'ERROR') failed = true;
    });
    while (!failed) {
      const { done, value } = await reader.read();
      if (done) break;
      split(value);
    }
    await reader.cancel().catch(() => undefined);
  };
  follow().then(
    () => !abort.signal.aborted && onEnd(),
    () => !abort.signal.aborted && onEnd(),
  );
  return () => abort.abort();
}
