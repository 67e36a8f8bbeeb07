import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { USERS } from '../api/paths';
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
        <table>
          <caption>Users ({users.value.items.length})</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Display name</th>
              <th scope="col">Email</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      )}
      <HasPermission permissions={['system:users:manage']}>
        <CreateUser />
      </HasPermission>
    </>
  );
}

function CreateUser() {
  const [form, setForm] = useState({ name: '', displayName: '', email: '', password: '' });
  const action = useAction();
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const spec = { displayName: form.displayName || undefined, email: form.email || undefined };
      await api('POST', USERS, { body: { metadata: { name: form.name }, spec } });
      if (form.password)
        await api('PUT', `${USERS}/${encodeURIComponent(form.name)}/password`, { body: { password: form.password } });
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
      <ErrorBox error={action.error} />
      <button type="submit" disabled={action.busy}>
        Create user
      </button>
    </form>
  );
}
