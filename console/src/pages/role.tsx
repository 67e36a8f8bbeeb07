import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import { ROLES } from '../api/paths';
import { ErrorBox } from '../components/error-box';
import { RulesTable } from '../components/rules-table';
import { useAsync } from '../components/use-async';
import { HasPermission } from '../permissions/permissions';
import { VIEW_ACCESS, WhoCanPanel } from '../components/who-can';
import { useMayI, WhyNot } from '../components/why-not';
import { Link } from '../router/link';
import { SUPER_ROLE } from '../roles/compose';
import { displayName, listAnnotation, moduleOf, type Role } from '../roles/roles';

/** One role: its own rules, and its effective rules, UI permissions and contributors from its `status`. */
export function RolePage(props: { params: Record<string, string> }) {
  const path = `${ROLES}/${encodeURIComponent(props.params.name)}`;
  const role = useAsync(() => api<Role>('GET', path), [path]);
  const r = role.value;
  const mayEdit = useMayI({ verb: 'update', group: '', resource: 'roles', name: props.params.name }, MANAGE_ROLES);
  return (
    <>
      <h1>Role {r ? displayName(r) : props.params.name}</h1>
      <p class="muted">
        <Link to="/roles">Roles</Link>
      </p>
      <ErrorBox error={role.error} />
      {r && r.metadata.name !== SUPER_ROLE && (
        <p class="actions">
          {mayEdit.allowed ? (
            <Link to={`/roles/${encodeURIComponent(r.metadata.name)}/edit`} class="button">
              Edit role
            </Link>
          ) : (
            <>
              <button type="button" disabled>
                Edit role
              </button>
              {mayEdit.allowed === false && <WhyNot id="edit-role-why" action="edit this role" why={mayEdit.why} />}
            </>
          )}
        </p>
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
          <RolePicture role={r} />
          <HasPermission permissions={[VIEW_ACCESS]}>
            <WhoCanPanel
              request={{ group: '', resource: 'roles', name: r.metadata.name }}
              verbs={['update', 'delete', 'bind', 'get']}
            />
          </HasPermission>
        </>
      )}
    </>
  );
}

const MANAGE_ROLES = 'system:roles:manage';

type GraphModule = typeof import('../components/role-graph');

/** The role's picture, drawn by a component fetched the first time a role page shows one (its own chunk). */
function RolePicture(props: { role: Role }) {
  const [graph, setGraph] = useState<GraphModule | undefined>();
  const roles = useAsync(() => api<{ items: Role[] }>('GET', ROLES), []);
  useEffect(() => {
    void import('../components/role-graph').then(setGraph);
  }, []);
  return (
    <section aria-labelledby="role-picture">
      <h2 id="role-picture">Picture</h2>
      {graph && !roles.loading ? (
        <graph.RoleGraphView role={props.role} roles={roles.value?.items ?? []} />
      ) : (
        <p>Drawing…</p>
      )}
    </section>
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
