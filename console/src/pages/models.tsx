import { servedModels } from '../api/discovery';
import { DataTable } from '../components/data-table';
import { ErrorBox } from '../components/error-box';
import { useAsync } from '../components/use-async';
import { Link } from '../router/link';

/** Every served model, from discovery, each linking to its objects. */
export function ModelsPage() {
  const models = useAsync(servedModels, []);
  return (
    <>
      <h1>Models</h1>
      <ErrorBox error={models.error} />
      {models.value && (
        <DataTable
          caption={`Served models (${models.value.length})`}
          columns={['Kind', 'Resource', 'Group', 'Version']}
        >
          {models.value.map((m) => (
            <tr key={`${m.group}/${m.plural}`}>
              <td>
                <Link to={`/models/${m.group || 'core'}/${m.version}/${m.plural}`}>{m.kind}</Link>
              </td>
              <td>{m.plural}</td>
              <td>{m.group || '(core)'}</td>
              <td>{m.version}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
