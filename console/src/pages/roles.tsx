import { api } from '../api/client';
import { ROLES } from '../api/paths';
import { ErrorBox } from '../components/error-box';
import { useAsync } from '../components/use-async';
import { HasPermission } from '../permissions/permissions';
import { Link } from '../router/link';
import { displayName, groupByModule, type Role } from '../roles/roles';

/** Every role that is not hidden, grouped by module, and a way to build a new one. */
export function RolesPage() {
  const roles = useAsync(() => api<{ items: Role[] }>('GET', ROLES), []);
  return (
    <>
      <h1>Roles</h1>
      <HasPermission permissions={['system:roles:manage']}>
        <p>
          <Link to="/roles/+new" class="button">
            New role
          </Link>
        </p>
      </HasPermission>
      <ErrorBox error={roles.error} />
      {roles.value &&
        groupByModule(roles.value.items).map((group) => (
          <section key={group.module} aria-labelledby={`module-${group.module}`}>
            <h2 id={`module-${group.module}`}>{group.module}</h2>
            <ul>
              {group.roles.map((role) => (
                <li key={role.metadata.name}>
                  <Link to={`/roles/${encodeURIComponent(role.metadata.name)}`}>{displayName(role)}</Link>{' '}
                  <span class="muted">{role.metadata.name}</span>
                </li>
              ))}
            </ul>
          </section>
        ))}
    </>
  );
}
