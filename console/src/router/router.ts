import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** Where the console is served; every client route lives below it. */
export const BASE = '/console';

/** One client route: a path pattern with `:param` segments, its page, and who may see it. */
export interface RouteDefinition {
  path: string;
  title: string;
  component: ComponentType<{ params: Record<string, string> }>;
  /** Shown in the menu (routes with parameters are reached from their lists). */
  menu?: boolean;
  meta: {
    /** UI permissions, any one of which opens the route; empty: every logged-in user. */
    permissions: string[];
  };
}

/** The route a path (below BASE) addresses and its parameters, if any. */
export function matchRoute(
  routes: readonly RouteDefinition[],
  path: string,
): { route: RouteDefinition; params: Record<string, string> } | undefined {
  const parts = path.split('/').filter(Boolean);
  for (const route of routes) {
    const params = matchPattern(route.path.split('/').filter(Boolean), parts);
    if (params) return { route, params };
  }
  return undefined;
}

function matchPattern(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i].startsWith(':')) params[pattern[i].slice(1)] = decodeURIComponent(parts[i]);
    else if (pattern[i] !== parts[i]) return undefined;
  }
  return params;
}

/** The current client path (below BASE) and query. */
export function currentLocation(): { path: string; search: string } {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  return { path: path || '/', search: location.search };
}

/** Goes to a client path (below BASE) without reloading the page. */
export function navigate(to: string, replace = false): void {
  const url = BASE + to;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  window.dispatchEvent(new Event('svc:navigate'));
}

/** Re-renders on every navigation (links, back and forward). */
export function useLocation(): { path: string; search: string } {
  const [where, setWhere] = useState(currentLocation);
  useEffect(() => {
    const update = () => setWhere(currentLocation());
    window.addEventListener('popstate', update);
    window.addEventListener('svc:navigate', update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener('svc:navigate', update);
    };
  }, []);
  return where;
}
