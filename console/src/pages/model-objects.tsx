import { useState } from 'preact/hooks';
import { sortableIndexes } from '../api/indexes';
import { cellText, fetchTable, type Table, type TableQuery } from '../api/table';
import { ErrorBox } from '../components/error-box';
import { useAsync } from '../components/use-async';
import { useLiveReload } from '../components/use-live-reload';
import { HasPermission } from '../permissions/permissions';
import { Link } from '../router/link';
import { FilterBar, type Filters } from './model-filters';
import { modelCollection, modelOf, modelRoute } from './model-params';

const PAGE_SIZE = 20;

/**
 * A model's objects: the server's Table (printer columns), a page at a time,
 * narrowed by label and field selectors (shown as chips), sorted by any of its
 * indexes, kept live by a WebSocket watch (paused when it ends, until resumed).
 */
export function ModelObjectsPage(props: { params: Record<string, string> }) {
  const model = modelOf(props.params);
  const collection = modelCollection(model);
  const [filters, setFilters] = useState<Filters>({ labelSelector: '', fieldSelector: '', sort: '' });
  const [pages, setPages] = useState<string[]>([]);
  const query: TableQuery = { ...filters, limit: PAGE_SIZE, continueToken: pages[pages.length - 1] };
  const table = useAsync(() => fetchTable(collection, query), [collection, JSON.stringify(query)]);
  const indexes = useAsync(() => sortableIndexes(model.group, model.plural), [model.group, model.plural]);
  const { live, resume } = useLiveReload(collection, table.value?.metadata, table.reload, filters);
  const apply = (next: Filters) => {
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
      <FilterBar value={filters} indexes={indexes.value ?? []} onApply={apply} />
      <LiveState live={live} onResume={resume} />
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

/** Whether rows follow changes, or are paused (the watch ended) with a way to resume. */
function LiveState(props: { live: boolean; onResume: () => void }) {
  return (
    <div class="live" role="status">
      {props.live ? (
        <span class="muted">Live: rows appear, change and leave as it happens.</span>
      ) : (
        <>
          <strong>Paused:</strong> the live view stopped (the server ended it or the connection dropped); what is shown
          may be out of date.{' '}
          <button type="button" onClick={props.onResume}>
            Resume
          </button>
        </>
      )}
    </div>
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
