import type { Page } from '../../console/node_modules/playwright-core';
import { TEST_ADMIN_PASSWORD } from '../support/apiserver';
import { logIn, mainMenu, screenshot, seriousAccessibilityViolations } from '../support/browser';
import { useConsoleSuite } from '../support/console-suite';
import { BINDINGS, createUser, ROLES, type RbacApi } from '../support/security';
import { waitFor } from '../support/wait-for';

// The role editor in headless Chromium against a real apiserver (RBAC) and controller-manager: the super
// administrator builds a delegated administrator's role from the built-in templates, and that delegated
// administrator builds and assigns roles of the one module they hold, and is refused anything beyond it.

const DEPENDENCIES = 'rbac.authorization.svc.run/dependencies';

jest.setTimeout(60_000);

const suite = useConsoleSuite('console-roles', {
  prepare: async (api) => {
    await createUser(api, 'dora', 'dora-password');
    await createUser(api, 'carol', 'carol-password');
  },
});
let api: RbacApi;
beforeAll(() => {
  api = suite.api;
});
const open = (path: string, expectedFailures: string[] = []): Promise<Page> => suite.open(path, expectedFailures);

async function menuTitles(page: Page, expected: string[]): Promise<void> {
  await waitFor(async () => (await mainMenu(page).allTextContents()).join() === expected.join(), {
    what: `the menu ${expected.join(', ')}`,
  });
}

/** Waits until the controller-manager has computed a role's effective UI permissions, `permission` among them. */
async function untilComputed(name: string, permission: string): Promise<void> {
  await waitFor(
    async () => ((await api.admin('GET', `${ROLES}/${name}`)).body?.status?.uiPermissions ?? []).includes(permission),
    { what: `${name}'s effective UI permissions` },
  );
}

it("builds a delegated administrator's role from templates, with dependencies locked and the grants shown before saving", async () => {
  const page = await open('/console/roles');
  await logIn(page, 'admin', TEST_ADMIN_PASSWORD);
  await page.getByRole('link', { name: 'New role' }).click();
  await page.getByRole('heading', { name: 'New role' }).waitFor();
  await page.getByLabel('Name', { exact: true }).fill('posts-admin');
  await page.getByLabel('Display name').fill('Posts administrator');
  const templates = page.getByRole('group', { name: 'Console' });
  await templates.getByRole('checkbox', { name: 'Manage users and assign roles' }).check();
  await templates.getByRole('checkbox', { name: 'Create and edit roles' }).check();
  await page.getByRole('group', { name: 'Posts' }).getByRole('checkbox', { name: 'Author' }).check();
  // Dependencies come ticked and locked, with the role they come through.
  const viewUsers = templates.getByRole('checkbox', { name: 'View users' });
  expect(await viewUsers.isChecked()).toBe(true);
  expect(await viewUsers.isDisabled()).toBe(true);
  await page.getByText('included through users-manage').waitFor();
  // Hidden roles and super-role are not offered.
  expect(await page.getByRole('checkbox', { name: 'Anonymous', exact: true }).count()).toBe(0);
  expect(await page.getByRole('checkbox', { name: 'Super administrator', exact: true }).count()).toBe(0);
  const preview = page.getByRole('region', { name: 'What this role will grant' });
  for (const permission of ['system:users:manage', 'system:users:view', 'system:roles:manage', 'uc:posts:publish'])
    expect(await preview.textContent()).toContain(permission);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await screenshot(page, 'role-editor-new');

  await page.getByRole('button', { name: 'Create role' }).click();
  await page.getByRole('heading', { name: 'Role Posts administrator' }).waitFor();
  const saved = (await api.admin('GET', `${ROLES}/posts-admin`)).body;
  expect(JSON.parse(saved.metadata.annotations[DEPENDENCIES])).toEqual(['users-manage', 'roles-manage', 'post-author']);
  await untilComputed('posts-admin', 'system:roles:manage');
  await page.reload();
  await page.getByRole('heading', { name: 'Effective rules' }).waitFor();
  expect(await page.getByRole('main').textContent()).toContain('system:roles:manage');
  await screenshot(page, 'role-editor-saved');

  // Edit: the display name changes; the templates stay as chosen.
  await page.getByRole('link', { name: 'Edit role' }).click();
  await page.getByLabel('Display name').fill('Posts admin');
  expect(await page.getByRole('group', { name: 'Posts' }).getByRole('checkbox', { name: 'Author' }).isChecked()).toBe(
    true,
  );
  await page.getByRole('button', { name: 'Save role' }).click();
  await page.getByRole('heading', { name: 'Role Posts admin' }).waitFor();
});

it('lets a delegated administrator build and assign roles of their module, and shows the refusal of anything more', async () => {
  if ((await api.admin('GET', `${ROLES}/posts-admin`)).status !== 200)
    throw new Error('the first test makes the posts-admin role');
  expect((await api.admin('POST', BINDINGS, binding('dora', 'posts-admin'))).status).toBe(201);
  await untilComputed('posts-admin', 'system:roles:manage');

  const page = await open('/console/', [ROLES]);
  await logIn(page, 'dora', 'dora-password');
  await menuTitles(page, ['Home', 'Users', 'Roles', 'Access', 'Posts']);
  await mainMenu(page).filter({ hasText: 'Roles' }).click();
  await page.getByRole('link', { name: 'New role' }).click();
  await page.getByLabel('Name', { exact: true }).fill('news-writer');
  await page.getByLabel('Display name').fill('News writer');
  await page.getByLabel('Module').fill('Posts');
  await page.getByRole('group', { name: 'Posts' }).getByRole('checkbox', { name: 'Contributor' }).check();
  // One template beyond what dora holds: the server refuses the role, and the console says why.
  await page
    .getByRole('group', { name: 'Console' })
    .getByRole('checkbox', { name: 'Enable and disable plugins' })
    .check();
  await page.getByRole('button', { name: 'Create role' }).click();
  expect(await page.getByRole('alert').textContent()).toMatch(/403/);
  expect((await api.admin('GET', `${ROLES}/news-writer`)).status).toBe(404);
  await screenshot(page, 'delegated-role-refused');
  await page
    .getByRole('group', { name: 'Console' })
    .getByRole('checkbox', { name: 'Enable and disable plugins' })
    .uncheck();
  await page.getByRole('button', { name: 'Create role' }).click();
  await page.getByRole('heading', { name: 'Role News writer' }).waitFor();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await untilComputed('news-writer', 'uc:posts:contribute');

  // dora assigns the new role to carol.
  await page.goto(`${api.server.url}/console/users/carol`);
  await page.getByRole('group', { name: 'Posts' }).getByRole('checkbox', { name: 'News writer' }).check();
  await page.getByRole('button', { name: 'Save roles' }).click();
  await page.getByText('Roles saved.').waitFor();
  await screenshot(page, 'delegated-assign-role');
  const bindings = (await api.admin('GET', BINDINGS)).body.items;
  const carols = bindings.filter((b: any) => b.subjects.some((s: any) => s.name === 'carol'));
  expect(carols.map((b: any) => b.roleRef.name)).toEqual(['news-writer']);
});

function binding(user: string, role: string) {
  return {
    metadata: { name: `${user}-${role}` },
    roleRef: { apiGroup: '', kind: 'Role', name: role },
    subjects: [{ kind: 'User', apiGroup: '', name: user }],
  };
}
