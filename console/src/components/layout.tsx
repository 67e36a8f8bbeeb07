import { useContext, useEffect, useRef } from 'preact/hooks';
import { PermissionsContext } from '../permissions/permissions';
import { grants } from '../permissions/grants';
import { Link } from '../router/link';
import { matchRoute, useLocation, type RouteDefinition } from '../router/router';
import { ROUTES } from '../routes';

/** The menu entries the caller may open: routes marked `menu` whose `meta.permissions` they hold one of. */
export function menuFor(uiPermissions: readonly string[], routes: readonly RouteDefinition[] = ROUTES) {
  return routes.filter((route) => route.menu && grants(uiPermissions, route.meta.permissions));
}

/** The frame of every page: a skip link, the menu, who is logged in, and the page the location names. */
export function Layout(props: {
  username: string;
  ready: boolean;
  /** The pages plugins add (`/plugins/<plugin>/…`), after the console's own. */
  pluginRoutes: readonly RouteDefinition[];
  onLogout: () => void;
}) {
  const { uiPermissions } = useContext(PermissionsContext);
  const { path } = useLocation();
  const routes = [...ROUTES, ...props.pluginRoutes];
  const matched = matchRoute(routes, path);
  useEffect(() => {
    document.title = matched ? `${matched.route.title} · svc console` : 'svc console';
  }, [matched?.route.title]);
  useAnnounceNavigation(path);
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">svc console</span>
        <nav aria-label="Main">
          <ul>
            {menuFor(uiPermissions, routes).map((route) => (
              <li key={route.path}>
                <Link to={route.path} current={matched?.route === route}>
                  {route.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">
          Signed in as{' '}
          <Link to="/me">
            <strong>{props.username}</strong>
          </Link>
          <button type="button" onClick={props.onLogout}>
            Log out
          </button>
        </span>
      </header>
      <main id="main" tabIndex={-1}>
        <Page matched={matched} ready={props.ready} uiPermissions={uiPermissions} />
      </main>
    </>
  );
}

/**
 * After a client-side navigation (not the first page), moves the focus to the
 * new page's heading, so a screen reader reads where the user is now and the
 * keyboard starts from the top of the page.
 */
function useAnnounceNavigation(path: string): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus();
    } else document.getElementById('main')?.focus();
  }, [path]);
}

function Page(props: { matched: ReturnType<typeof matchRoute>; ready: boolean; uiPermissions: readonly string[] }) {
  const { matched } = props;
  if (!matched) return props.ready ? <p>There is no page here.</p> : <p>Loading…</p>;
  if (!grants(props.uiPermissions, matched.route.meta.permissions)) {
    return props.ready ? <p role="alert">You do not have access to this page.</p> : <p>Loading…</p>;
  }
  const Component = matched.route.component;
  return <Component params={matched.params} />;
}
