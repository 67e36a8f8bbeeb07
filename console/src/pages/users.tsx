import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { ApiError } from '../api/errors';
import { SELF_ACCESS_REVIEWS, USERS } from '../api/paths';
import { DataTable } from '../components/data-table';
import { ErrorBox } from '../components/error-box';
import { TextField } from '../components/field';
import { useAction, useAsync } from '../components/use-async';
import { HasPermission } from '../permissions/permissions';
import { Link } from '../router/link';
import { navigate } from '../router/router';

/** A User as the console reads it. */
export interface User {
  metadata: { name: string; version?: number };
  spec?: { displayName?: string; email?: string; disabled?: boolean };
}

/** Every user, and a form to create one. */
export function UsersPage() {
  const users = useAsync(() => api<{ items: User[] }>('GET', `${USERS}?sort=metadata.name,asc`), []);
  return (
    <>
      <h1>Users</h1>
      <ErrorBox error={users.error} />
      {users.value && (
        <DataTable caption={`Users (${users.value.items.length})`} columns={['Name', 'Display name', 'Email', 'State']}>
          {users.value.items.map((u) => (
            <tr key={u.metadata.name}>
              <td>
                <Link to={`/users/${encodeURIComponent(u.metadata.name)}`}>{u.metadata.name}</Link>
              </td>
              <td>{u.spec?.displayName}</td>
              <td>{u.spec?.email}</td>
              <td>{u.spec?.disabled ? 'disabled' : 'active'}</td>
            </tr>
          ))}
        </DataTable>
      )}
      <HasPermission permissions={['system:users:manage']}>
        <CreateUser />
      </HasPermission>
    </>
  );
}

/**
 * The UI permission that offers setting other users' passwords. No built-in
 * template carries it (setting a password is logging in as that user): the
 * super administrator's `*` does.
 */
export const SET_PASSWORDS = 'system:users:password';

/** What the server accepts as a password (8 to 1,024 characters): checked before anything is created. */
const PASSWORD_LENGTH = { min: 8, max: 1024 };

/** Whether the server lets the caller set this user's password (a self access review; any user may ask). */
async function maySetPassword(name: string): Promise<boolean> {
  const review = await api<{ status?: { allowed?: boolean } }>('POST', SELF_ACCESS_REVIEWS, {
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb: 'update', group: '', resource: 'users', subresource: 'password', name } },
    },
  });
  return review.status?.allowed === true;
}

/**
 * Creates a user and sets their first password as one step: a password the
 * server would refuse, or one the caller may not set (no `update` on
 * `users/password`), is refused before the user is created; should the server
 * refuse it anyway, the user just created is deleted again.
 */
async function createUser(form: { name: string; displayName: string; email: string; password: string }) {
  const { password } = form;
  const refused = (message: string, status = 422) =>
    new ApiError(status, status === 403 ? 'Forbidden' : 'Invalid', 'The password was refused: nothing was created.', [
      { field: 'password', message },
    ]);
  if (password && (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max))
    throw refused(`must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters`);
  if (password && !(await maySetPassword(form.name)))
    throw refused('you may not set passwords (update on users/password): create the user without one', 403);
  const path = `${USERS}/${encodeURIComponent(form.name)}`;
  const spec = { displayName: form.displayName || undefined, email: form.email || undefined };
  await api('POST', USERS, { body: { metadata: { name: form.name }, spec } });
  if (!password) return;
  try {
    await api('PUT', `${path}/password`, { body: { password } });
  } catch (err) {
    await api('DELETE', path).catch(() => undefined);
    throw err;
  }
}

function CreateUser() {
  const [form, setForm] = useState({ name: '', displayName: '', email: '', password: '' });
  const action = useAction();
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await createUser(form);
      navigate(`/users/${encodeURIComponent(form.name)}`);
    });
  };
  const causes = action.error?.causes;
  return (
    <form onSubmit={submit} aria-labelledby="create-user">
      <h2 id="create-user">Create a user</h2>
      <TextField label="Name" name="name" value={form.name} onInput={set('name')} required causes={causes} />
      <TextField
        label="Display name"
        name="displayName"
        value={form.displayName}
        onInput={set('displayName')}
        causes={causes}
      />
      <TextField label="Email" name="email" type="email" value={form.email} onInput={set('email')} causes={causes} />
      <HasPermission permissions={[SET_PASSWORDS]}>
        <TextField
          label="Password"
          name="password"
          type="password"
          value={form.password}
          onInput={set('password')}
          autocomplete="new-password"
          hint="8 characters or more; leave empty to set it later"
          causes={causes}
        />
      </HasPermission>
      <ErrorBox error={action.error} />
      <button type="submit" disabled={action.busy}>
        Create user
      </button>
    </form>
  );
}
