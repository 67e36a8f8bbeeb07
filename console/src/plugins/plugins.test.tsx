import { render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PermissionsContext } from '../permissions/permissions';
import { menuFor } from '../components/layout';
import { pluginRoutes, type PluginRoute } from './contract';
import { loadPluginRoutes, sameRoutes } from './load';
import { PluginPage } from './plugin-page';

// Console pages shipped by plugins: the module's routes join the menu under /plugins/<name>, gated by their
// meta.permissions, and each page is drawn by the plugin's render(root, ctx) without any framework.

const PEOPLE = { name: 'people', version: '1.0.0', entry: '/console/plugin-files/people/console/index.js' };
const page = () => () => null;

const persons = (render: PluginRoute['render'] = () => undefined): PluginRoute => ({
  path: '/persons',
  title: 'People',
  meta: { permissions: ['plugin:people:person:view'] },
  render,
});

afterEach(() => vi.unstubAllGlobals());

describe("a plugin's routes", () => {
  it('live below /plugins/<name> and join the menu of those holding their permissions', () => {
    const routes = pluginRoutes(
      PEOPLE,
      { routes: [persons(), { ...persons(), path: '/persons/:id', menu: false }] },
      page,
    );
    expect(routes.map((r) => [r.path, r.menu, r.meta.permissions])).toEqual([
      ['/plugins/people/persons', true, ['plugin:people:person:view']],
      ['/plugins/people/persons/:id', false, ['plugin:people:person:view']],
    ]);
    expect(menuFor(['plugin:people:person:view'], routes).map((r) => r.title)).toEqual(['People']);
    expect(menuFor(['uc:posts:contribute'], routes)).toEqual([]);
    expect(menuFor(['*'], routes).map((r) => r.title)).toEqual(['People']);
  });

  it.each([
    ['no routes array', {}, 'exports no routes array'],
    ['a path without a slash', { routes: [{ ...persons(), path: 'persons' }] }, 'routes[0]: path must start with "/"'],
    ['a path leaving its part', { routes: [{ ...persons(), path: '/../users' }] }, 'path must start with "/"'],
    ['no title', { routes: [{ ...persons(), title: '' }] }, 'title is missing'],
    ['no render', { routes: [{ ...persons(), render: 'x' }] }, 'render must be a function'],
    ['permissions that are no list', { routes: [{ ...persons(), meta: { permissions: 'a' } }] }, 'meta.permissions'],
  ])('are refused with %s', (_what, module, message) => {
    expect(() => pluginRoutes(PEOPLE, module, page)).toThrow(message);
  });

  it('are loaded from each listed module; one that fails to load is left out', async () => {
    const broken = { ...PEOPLE, name: 'broken', entry: '/console/plugin-files/broken/console/index.js' };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ items: [broken, PEOPLE] }))),
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const imported: string[] = [];
    const routes = await loadPluginRoutes(page, async (url) => {
      imported.push(url);
      if (url.includes('broken')) throw new Error('SyntaxError');
      return { routes: [persons()] };
    });
    expect(imported).toEqual([broken.entry, PEOPLE.entry]);
    expect(routes.map((r) => r.path)).toEqual(['/plugins/people/persons']);
    expect(warn).toHaveBeenCalledWith('the console pages of plugin broken are left out:', expect.any(Error));
    warn.mockRestore();
  });
});

describe("a plugin's page", () => {
  const drawn = (uiPermissions: string[], route: PluginRoute) => (
    <PermissionsContext.Provider value={{ roles: [], uiPermissions }}>
      <PluginPage route={route} params={{ id: 'ada' }} username="ada" />
    </PermissionsContext.Provider>
  );

  it("is drawn by the plugin's render, and drawn again (the old one undone) when permissions change", async () => {
    const undone = vi.fn();
    const route = persons((root, ctx) => {
      const manage = ctx.hasPermission(['plugin:people:person:manage']);
      root.innerHTML = `<p>${ctx.user.name} ${ctx.params.id}</p>${manage ? '<button>Add person</button>' : ''}`;
      return undone;
    });
    const { rerender } = render(drawn(['plugin:people:person:view'], route));
    expect(screen.getByRole('heading', { name: 'People' })).toBeTruthy();
    expect(screen.getByText('ada ada')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add person' })).toBeNull();
    rerender(drawn(['plugin:people:person:view', 'plugin:people:person:manage'], route));
    await screen.findByRole('button', { name: 'Add person' });
    expect(undone).toHaveBeenCalledTimes(1);
  });

  it('calls the API with the session through ctx.api, and rejects with the Status', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ kind: 'Status', reason: 'Forbidden', message: 'no' }), { status: 403 }),
      ),
    );
    const route = persons((root, ctx) => {
      ctx
        .api('DELETE', '/apis/people.example.com/v1alpha1/persons/ada')
        .catch((err: { code: number; message: string }) => {
          root.textContent = `${err.code}: ${err.message}`;
        });
    });
    render(drawn(['plugin:people:person:view'], route));
    await waitFor(() => expect(screen.getByText('403: no')).toBeTruthy());
  });

  it('says so when render throws, and the console keeps working', () => {
    render(
      drawn(
        [],
        persons(() => {
          throw new Error('boom');
        }),
      ),
    );
    expect(screen.getByText('This page of a plugin failed: boom')).toBeTruthy();
  });
});

describe('sameRoutes', () => {
  const route = (path: string, permissions: string[]) => ({
    path,
    title: 'People',
    menu: true,
    component: () => null,
    meta: { permissions },
  });

  it('keeps routes read again when nothing shown changed, and takes them when a plugin left or its routes changed', () => {
    const shown = [route('/plugins/people', ['p:view'])];
    expect(sameRoutes(shown, [route('/plugins/people', ['p:view'])])).toBe(true);
    expect(sameRoutes(shown, [])).toBe(false);
    expect(sameRoutes(shown, [route('/plugins/people', ['p:manage'])])).toBe(false);
    expect(sameRoutes(undefined, [])).toBe(false);
  });
});
