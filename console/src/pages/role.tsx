import { api } from '../api/client';
import { ROLES } from '../api/paths';
import { ErrorBox } from '../components/error-box';
import { useAsync } from '../components/use-async';
import { Link } from '../router/link';
import { displayName, listAnnotation, moduleOf, type Role, type Rule } from '../roles/roles';

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
          <Rules rules={r.rules ?? []} />
          <h2>Effective rules</h2>
          {r.status ? (
            <Rules rules={r.status.rules ?? []} />
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

function Rules(props: { rules: Rule[] }) {
  if (props.rules.length === 0) return <p>None.</p>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">API groups</th>
          <th scope="col">Resources or paths</th>
          <th scope="col">Names</th>
          <th scope="col">Verbs</th>
        </tr>
      </thead>
      <tbody>
        {props.rules.map((rule, i) => (
          <tr key={i}>
            <td>{(rule.apiGroups ?? []).map((g) => g || '(core)').join(', ')}</td>
            <td>{[...(rule.resources ?? []), ...(rule.nonResourceURLs ?? [])].join(', ')}</td>
            <td>{(rule.resourceNames ?? []).join(', ') || 'any'}</td>
            <td>{rule.verbs.join(', ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
