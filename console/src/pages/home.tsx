import { useContext } from 'preact/hooks';
import { PermissionsContext } from '../permissions/permissions';

/** Where the console opens: the caller's roles and UI permissions. */
export function HomePage() {
  const { roles, uiPermissions } = useContext(PermissionsContext);
  return (
    <>
      <h1>Welcome</h1>
      <p>The menu shows what your roles let you do.</p>
      <h2>Your roles</h2>
      <p>{roles.join(', ') || 'none'}</p>
      <h2>Your UI permissions</h2>
      <p>{uiPermissions.join(', ') || 'none'}</p>
    </>
  );
}
