import { useContext, useEffect, useRef } from 'preact/hooks';
import { api } from '../api/client';
import { PermissionsContext } from '../permissions/permissions';
import { grants } from '../permissions/grants';
import { navigate } from '../router/router';
import type { PluginPageContext, PluginRoute } from './contract';

/**
 * A plugin's page: its title, and an element the plugin's `render` draws
 * into. Drawn again (after the previous one is undone) when the user's UI
 * permissions or the route's parameters change.
 */
export function PluginPage(props: { route: PluginRoute; params: Record<string, string>; username: string }) {
  const { uiPermissions } = useContext(PermissionsContext);
  const root = useRef<HTMLDivElement>(null);
  const { route, params, username } = props;
  useEffect(() => {
    const element = root.current;
    if (!element) return undefined;
    const aborter = new AbortController();
    const ctx: PluginPageContext = {
      api: (method, path, body) => api(method, path, { body, signal: aborter.signal }),
      hasPermission: (permissions) => grants(uiPermissions, permissions),
      uiPermissions: [...uiPermissions],
      user: { name: username },
      params: { ...params },
      navigate: (path) => navigate(path),
      signal: aborter.signal,
    };
    let undo: void | (() => void);
    try {
      undo = route.render(element, ctx);
    } catch (err) {
      element.textContent = `This page of a plugin failed: ${(err as Error).message}`;
    }
    return () => {
      aborter.abort();
      if (typeof undo === 'function') undo();
      element.replaceChildren();
    };
  }, [route, JSON.stringify(params), uiPermissions.join(','), username]);
  return (
    <>
      <h1>{route.title}</h1>
      <div ref={root} class="plugin-page" />
    </>
  );
}
