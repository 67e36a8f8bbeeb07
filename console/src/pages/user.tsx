import { api } from '../api/client';
import { USERS } from '../api/paths';
import { ErrorBox } from '../components/error-box';
import { PasswordForm } from '../components/password-form';
import { useAction, useAsync } from '../components/use-async';
import { HasPermission } from '../permissions/permissions';
import { Link } from '../router/link';
import { AssignRoles } from './assign-roles';
import { UserGrants } from '../components/user-grants';
import { VIEW_ACCESS, WhoCanPanel } from '../components/who-can';
import { GuardedButton, useMayI } from '../components/why-not';
import { SET_PASSWORDS, type User } from './users';

const MANAGE_USERS = 'system:users:manage';

/** One user: who they are, enable or disable, set a password, and the roles they hold. */
export function UserPage(props: { params: Record<string, string> }) {
  const path = `${USERS}/${encodeURIComponent(props.params.name)}`;
  const user = useAsync(() => api<User>('GET', path), [path]);
  const toggle = useAction();
  const disabled = user.value?.spec?.disabled === true;
  const mayPatch = useMayI({ verb: 'patch', group: '', resource: 'users', name: props.params.name }, MANAGE_USERS);
  const onToggle = () =>
    void toggle.run(async () => {
      await api('PATCH', path, {
        body: { spec: { disabled: !disabled } },
        contentType: 'application/merge-patch+json',
      });
      user.reload();
    });
  return (
    <>
      <h1>User {props.params.name}</h1>
      <p class="muted">
        <Link to="/users">Users</Link>
      </p>
      <ErrorBox error={user.error} />
      {user.value && <UserFacts user={user.value} />}
      {/* Only for a user who exists: a missing one (404) gets the error alone, no forms that would fail. */}
      {user.value && (
        <>
          <ErrorBox error={toggle.error} />
          <div class="actions">
            <GuardedButton
              may={mayPatch}
              id="toggle-user"
              action={disabled ? 'enable this user' : 'disable this user'}
              label={disabled ? 'Enable' : 'Disable'}
              busy={toggle.busy}
              onClick={onToggle}
            />
          </div>
        </>
      )}
      {user.value && (
        <HasPermission permissions={[MANAGE_USERS]}>
          <HasPermission permissions={[SET_PASSWORDS]}>
            <PasswordForm
              path={`${path}/password`}
              id="set-password"
              title="Set a password"
              submitLabel="Set password"
              doneMessage="Password set."
            />
          </HasPermission>
          <AssignRoles user={props.params.name} />
        </HasPermission>
      )}
      {user.value && (
        <HasPermission permissions={[VIEW_ACCESS]}>
          <UserGrants user={props.params.name} />
          <WhoCanPanel request={{ group: '', resource: 'users', name: props.params.name }} />
        </HasPermission>
      )}
    </>
  );
}

function UserFacts(props: { user: User }) {
  const spec = props.user.spec ?? {};
  return (
    <dl>
      <dt>Display name</dt>
      <dd>{spec.displayName || '—'}</dd>
      <dt>Email</dt>
      <dd>{spec.email || '—'}</dd>
      <dt>State</dt>
      <dd>{spec.disabled ? 'disabled: cannot log in, tokens refused' : 'active'}</dd>
    </dl>
  );
}
