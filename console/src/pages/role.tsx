import { api } from '../api/client';
import { ROLES } from '../api/paths';
import { ErrorBox } from '../components/error-box';
import { RulesTable } from '../components/rules-table';
import { useAsync } from '../components/use-async';
import { HasPermission } from '../permissions/permissions';
import { Link } from '../router/link';
import { SUPER_ROLE } from '../roles/compose';
import { displayName, listAnnotation, moduleOf, type Role } from '../roles/roles';

/** One role: its own rules, and its effective rules, UI permissions and contributors from its `status`. */
export function RolePage(props: { params: Record<string, string> }) {
  const path = `${ROLES}/${encodeURIComponent(props.params.name)}`;
  const role = useAsync(() => api<Role>('GET', path), [path]);
  const r = role.value;
  return (
    <>
      <h1>Role {r ? displayName(r) : props.params.name}</h1>
      <p class="muted">
        <Link to="/roles">Roles</Link>
      </p>
      <ErrorBox error={role.error} />
      {r && r.metadata.name !== SUPER_ROLE && (
        <HasPermission permissions={['system:roles:manage']}>
          <p>
            <Link to={`/roles/${encodeURIComponent(r.metadata.name)}/edit`} class="button">
              Edit role
            </Link>
          </p>
        </HasPermission>
      )}
      {r && (
        <>
          <dl>
            <dt>Name</dt>
            <dd>{r.metadata.name}</dd>
            <dt>Module</dt>
            <dd>{moduleOf(r)}</dd>
            <dt>Depends on</dt>
            <dd>{listAnnotation(r, 'dependencies').join(', ') || '—'}</dd>
          </dl>
          <h2>Own rules</h2>
          <RulesTable rules={r.rules ?? []} />
          <h2>Effective rules</h2>
          {r.status ? (
            <RulesTable rules={r.status.rules ?? []} />
          ) : (
            <p>Not computed yet (the controller-manager writes them).</p>
          )}
          <h2>UI permissions</h2>
          <p>{(r.status?.uiPermissions ?? listAnnotation(r, 'ui-permissions')).join(', ') || '—'}</p>
          <h2>Where they come from</h2>
          <Contributors role={r} />
        </>
      )}
    </>
  );
}

function Contributors(props: { role: Role }) {
  const list = props.role.status?.contributors ?? [];
  if (list.length === 0) return <p>Only its own rules.</p>;
  return (
    <ul>
      {list.map((c) => (
        <li key={`${c.name}-${c.via}-${c.through}`}>
          <Link to={`/roles/${encodeURIComponent(c.name)}`}>{c.name}</Link>, by {c.via}
          {c.through ? ` through ${c.through}` : ''}
        </li>
      ))}
    </ul>
  );
}
