import { useCallback, useEffect, useState } from 'preact/hooks';
import { setApiToken } from './api/client';
import { logout } from './api/auth';
import { loadSession, saveSession, sessionEndReason, type Session } from './api/session';
import { Layout } from './components/layout';
import { LoginPage } from './pages/login';
import { NO_PERMISSIONS, PermissionsContext, type Permissions } from './permissions/permissions';
import { keepPermissionsFresh, permissionsReader, type RefreshCause } from './permissions/refresh';
import { loadPluginRoutes, sameRoutes } from './plugins/load';
import { PluginPage } from './plugins/plugin-page';
import type { RouteDefinition } from './router/router';

/** The console: the login until there is a session, then the menu and pages the caller's permissions allow. */
export function App() {
  const [session, setSession] = useState<Session | undefined>(() => loadSession());
  const [permissions, setPermissions] = useState<Permissions | undefined>();
  const [pluginRoutes, setPluginRoutes] = useState<RouteDefinition[] | undefined>();
  const [ended, setEnded] = useState<string | undefined>();

  const end = useCallback(() => {
    saveSession(undefined);
    setApiToken(undefined);
    setPermissions(undefined);
    setPluginRoutes(undefined);
    setSession(undefined);
  }, []);
  // A 401 for the session's token: the session is over; the login says why.
  setApiToken(session?.token, () => {
    if (session) setEnded(sessionEndReason(session));
    end();
  });

  useEffect(() => {
    if (!session) return undefined;
    const read = permissionsReader();
    const page = (route: Parameters<typeof PluginPage>[0]['route']) => (props: { params: Record<string, string> }) => (
      <PluginPage route={route} params={props.params} username={session.username} />
    );
    // Plugins' pages are read again on every event (not on the poll), so a plugin disabled or enabled meanwhile
    // leaves or joins the menu. Without them (an older server, a failure), the console's own pages still work.
    const loadPlugins = () =>
      void loadPluginRoutes(page).then(
        (read) => setPluginRoutes((shown) => (sameRoutes(shown, read) ? shown : read)),
        () => setPluginRoutes((shown) => shown ?? []),
      );
    const refresh = (cause: RefreshCause) => {
      void read().then(
        (p) => p && setPermissions(p),
        () => undefined,
      );
      if (cause === 'event') loadPlugins();
    };
    refresh('event');
    return keepPermissionsFresh(refresh);
  }, [session]);

  if (!session) {
    return (
      <LoginPage
        ended={ended}
        onLogin={(s) => {
          saveSession(s);
          setEnded(undefined);
          setSession(s);
        }}
      />
    );
  }
  const onLogout = () => void logout(session).finally(end);
  return (
    <PermissionsContext.Provider value={permissions ?? NO_PERMISSIONS}>
      <Layout
        username={session.username}
        ready={permissions !== undefined && pluginRoutes !== undefined}
        pluginRoutes={pluginRoutes ?? []}
        onLogout={onLogout}
      />
    </PermissionsContext.Provider>
  );
}
