import { useState } from 'preact/hooks';
import { cellText, fetchTable, type Table, type TableQuery } from '../api/table';
import { ErrorBox } from '../components/error-box';
import { useAsync } from '../components/use-async';
import { useLiveReload } from '../components/use-live-reload';
import { HasPermission } from '../permissions/permissions';
import { Link } from '../router/link';
import { modelCollection, modelOf, modelRoute } from './model-params';

const PAGE_SIZE = 20;

/**
 * A model's objects: the server's Table (printer columns), a page at a time,
 * narrowed by label and field selectors, kept live by a WebSocket watch.
 */
export function ModelObjectsPage(props: { params: Record<string, string> }) {
  const model = modelOf(props.params);
  const collection = modelCollection(model);
  const [filters, setFilters] = useState({ labelSelector: '', fieldSelector: '', sort: '' });
  const [pages, setPages] = useState<string[]>([]);
  const query: TableQuery = { ...filters, limit: PAGE_SIZE, continueToken: pages[pages.length - 1] };
  const table = useAsync(() => fetchTable(collection, query), [collection, JSON.stringify(query)]);
  const live = useLiveReload(collection, table.value?.metadata.resourceVersion, table.reload, filters);
  const apply = (next: typeof filters) => {
    setFilters(next);
    setPages([]);
  };
  return (
    <>
      <h1>{model.plural}</h1>
      <p class="muted">
        <Link to="/models">Models</Link> / {model.group || '(core)'}/{model.version}
      </p>
      <HasPermission permissions={['system:models:manage']}>
        <Link class="button" to={`${modelRoute(model)}/+new`}>
          Create
        </Link>
      </HasPermission>
      <Filters value={filters} onApply={apply} />
      <p class="muted live" role="status">
        {live ? 'Live: changes show as they happen.' : 'Not live: the watch ended; reload the page to resume.'}
      </p>
      <ErrorBox error={table.error} />
      {table.value && <ObjectsTable table={table.value} route={modelRoute(model)} />}
      <nav aria-label="Pages" class="pager">
        <button type="button" disabled={pages.length === 0} onClick={() => setPages(pages.slice(0, -1))}>
          Previous page
        </button>
        <span>Page {pages.length + 1}</span>
        <button
          type="button"
          disabled={!table.value?.metadata.continue}
          onClick={() => setPages([...pages, table.value?.metadata.continue ?? ''])}
        >
          Next page
        </button>
      </nav>
    </>
  );
}

function Filters(props: {
  value: { labelSelector: string; fieldSelector: string; sort: string };
  onApply: (v: { labelSelector: string; fieldSelector: string; sort: string }) => void;
}) {
  const [draft, setDraft] = useState(props.value);
  const input = (key: keyof typeof draft, label: string, placeholder: string) => (
    <div class="field">
      <label for={`filter-${key}`}>{label}</label>
      <input
        id={`filter-${key}`}
        value={draft[key]}
        placeholder={placeholder}
        onInput={(e) => setDraft({ ...draft, [key]: (e.target as HTMLInputElement).value })}
      />
    </div>
  );
  return (
    <form
      class="filters"
      aria-label="Filter"
      onSubmit={(e) => {
        e.preventDefault();
        props.onApply(draft);
      }}
    >
      {input('labelSelector', 'Label selector', 'team=engines')}
      {input('fieldSelector', 'Field selector', 'spec.name=ada')}
      {input('sort', 'Sort', 'metadata.name,asc')}
      <button type="submit">Apply</button>
    </form>
  );
}

function ObjectsTable(props: { table: Table; route: string }) {
  const { columnDefinitions, rows } = props.table;
  if (rows.length === 0) return <p>No objects.</p>;
  return (
    <div class="table-scroll">
      <table>
        <thead>
          <tr>
            {columnDefinitions.map((c) => (
              <th scope="col" key={c.name} title={c.description}>
                {c.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => {
            const name = row.object?.metadata?.name ?? cellText(row.cells[0]);
            return (
              <tr key={name || i}>
                {row.cells.map((cell, j) => (
                  <td key={j}>
                    {j === 0 ? (
                      <Link to={`${props.route}/${encodeURIComponent(name)}`}>{cellText(cell)}</Link>
                    ) : (
                      cellText(cell)
                    )}
                    {j === 0 && row.object?.metadata?.deletionTimestamp ? <span class="badge"> deleting</span> : null}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
