import { useCallback, useEffect, useState } from 'preact/hooks';
import { setApiToken } from './api/client';
import { logout } from './api/auth';
import { loadSession, saveSession, type Session } from './api/session';
import { Layout } from './components/layout';
import { LoginPage } from './pages/login';
import { NO_PERMISSIONS, PermissionsContext, type Permissions } from './permissions/permissions';
import { fetchPermissions, keepPermissionsFresh } from './permissions/refresh';

/** The console: the login until there is a session, then the menu and pages the caller's permissions allow. */
export function App() {
  const [session, setSession] = useState<Session | undefined>(() => loadSession());
  const [permissions, setPermissions] = useState<Permissions | undefined>();

  const end = useCallback(() => {
    saveSession(undefined);
    setApiToken(undefined);
    setPermissions(undefined);
    setSession(undefined);
  }, []);
  setApiToken(session?.token, end);

  useEffect(() => {
    if (!session) return undefined;
    const refresh = () => void fetchPermissions().then(setPermissions, () => undefined);
    refresh();
    return keepPermissionsFresh(refresh);
  }, [session]);

  if (!session) {
    return (
      <LoginPage
        onLogin={(s) => {
          saveSession(s);
          setSession(s);
        }}
      />
    );
  }
  const onLogout = () => void logout(session).finally(end);
  return (
    <PermissionsContext.Provider value={permissions ?? NO_PERMISSIONS}>
      <Layout username={session.username} ready={permissions !== undefined} onLogout={onLogout} />
    </PermissionsContext.Provider>
  );
}
