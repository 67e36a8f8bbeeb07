import { useEffect, useRef, useState } from 'preact/hooks';
import { listAudit, NO_FILTER, tailAudit, type AuditEvent, type AuditFilter } from '../api/audit';
import { DataTable } from '../components/data-table';
import { ErrorBox } from '../components/error-box';
import { SelectField, TextField } from '../components/field';
import { useAction, useAsync } from '../components/use-async';

/** How many records one page of the Audit page holds. */
export const AUDIT_PAGE = 50;
/** The most records the live tail keeps on screen (the oldest leave first). */
const TAIL_KEPT = 500;

const VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection', 'get', 'list', 'watch'];
/** The filter's empty choice: no filter on that field. */
const ANY = { value: '', label: 'any' };

/**
 * What happened: the audit records, newest first, filtered by user, verb, resource, decision and time, and
 * a live tail that adds new records as they are written; when the stream ends it says "Paused".
 */
export function AuditPage() {
  const [draft, setDraft] = useState<AuditFilter>(NO_FILTER);
  const [filter, setFilter] = useState<AuditFilter>(NO_FILTER);
  const first = useAsync(() => listAudit(filter, AUDIT_PAGE), [JSON.stringify(filter)]);
  const [older, setOlder] = useState<{ items: AuditEvent[]; continue?: string } | undefined>();
  const [live, setLive] = useState<AuditEvent[]>([]);
  const [tail, setTail] = useState<'off' | 'live' | 'paused'>('off');
  const more = useAction();
  const stop = useRef<(() => void) | undefined>(undefined);

  const set = (key: keyof AuditFilter) => (value: string) => setDraft({ ...draft, [key]: value });
  const apply = (event: Event) => {
    event.preventDefault();
    setOlder(undefined);
    setLive([]);
    setFilter({ ...draft, since: draft.since ? new Date(draft.since).toISOString() : '' });
  };
  const follow = () => {
    stop.current?.();
    setTail('live');
    stop.current = tailAudit(
      filter,
      (event) => setLive((kept) => [event, ...kept].slice(0, TAIL_KEPT)),
      () => setTail('paused'),
    );
  };
  const pause = () => {
    stop.current?.();
    stop.current = undefined;
    setTail('paused');
  };
  // A new filter restarts a running tail with it; leaving the page stops it.
  useEffect(() => {
    if (tail === 'live') follow();
  }, [JSON.stringify(filter)]);
  useEffect(() => () => stop.current?.(), []);

  const loadOlder = () =>
    void more.run(async () => {
      const after = older?.continue ?? first.value?.continue;
      const page = await listAudit(filter, AUDIT_PAGE, after);
      setOlder({ items: [...(older?.items ?? []), ...page.items], continue: page.continue });
    });
  const seen = new Set<string>();
  const rows = [...live, ...(first.value?.items ?? []), ...(older?.items ?? [])].filter((e) =>
    seen.has(e.metadata.name) ? false : (seen.add(e.metadata.name), true),
  );
  const next = older ? older.continue : first.value?.continue;
  return (
    <>
      <h1>Audit</h1>
      <form onSubmit={apply} aria-label="Filter audit records" class="filters">
        <TextField label="User" name="user" value={draft.user} onInput={set('user')} />
        <SelectField label="Verb" name="verb" value={draft.verb} options={[ANY, ...VERBS]} onChange={set('verb')} />
        <TextField
          label="Resource"
          name="resource"
          value={draft.resource}
          onInput={set('resource')}
          hint="e.g. roles"
        />
        <SelectField
          label="Decision"
          name="decision"
          value={draft.decision}
          options={[ANY, { value: 'allow', label: 'allowed' }, { value: 'deny', label: 'denied' }]}
          onChange={set('decision')}
        />
        <div class="field">
          <label for="field-since">Since</label>
          <input
            id="field-since"
            type="datetime-local"
            value={draft.since}
            onInput={(e) => set('since')((e.target as HTMLInputElement).value)}
          />
        </div>
        <button type="submit">Apply filters</button>
      </form>
      <div class="actions">
        {tail === 'live' ? (
          <button type="button" onClick={pause}>
            Pause live tail
          </button>
        ) : (
          <button type="button" onClick={follow}>
            {tail === 'paused' ? 'Resume live tail' : 'Follow live'}
          </button>
        )}
        <span role="status" class="live">
          {tail === 'live' ? 'Live: new records appear at the top.' : tail === 'paused' ? 'Paused.' : ''}
        </span>
      </div>
      <ErrorBox error={first.error ?? more.error} />
      {first.value && <AuditTable events={rows} />}
      {next && (
        <button type="button" onClick={loadOlder} disabled={more.busy}>
          Older records
        </button>
      )}
    </>
  );
}

function AuditTable(props: { events: AuditEvent[] }) {
  if (props.events.length === 0) return <p>No records match.</p>;
  return (
    <DataTable
      class="audit"
      caption="Audit records, newest first"
      columns={['Time', 'User', 'Verb', 'Resource', 'Answer', 'Reason']}
    >
      {props.events.map((e) => (
        <tr key={e.metadata.name} class={e.decision === 'deny' ? 'denied' : undefined}>
          <td>
            <time dateTime={e.time}>{e.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}</time>
          </td>
          <td>{e.user}</td>
          <td>{e.verb}</td>
          <td>{resourceOf(e)}</td>
          <td>
            {e.decision === 'deny' ? 'denied' : 'allowed'} ({e.code})
          </td>
          <td>{e.reason}</td>
        </tr>
      ))}
    </DataTable>
  );
}

function resourceOf(e: AuditEvent): string {
  if (!e.resource) return e.path;
  const kind = [e.resource, e.subresource].filter(Boolean).join('/') + (e.group ? `.${e.group}` : '');
  return e.name ? `${kind} ${e.name}` : kind;
}
