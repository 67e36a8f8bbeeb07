import type { Page } from '../../console/node_modules/playwright-core';
import { TEST_ADMIN_PASSWORD } from '../support/apiserver';
import { logIn, mainMenu, screenshot, seriousAccessibilityViolations } from '../support/browser';
import { useConsoleSuite } from '../support/console-suite';
import { basic, bind, createRole, createUser, ROLES, USERS, type RbacApi } from '../support/security';
import { waitFor } from '../support/wait-for';

// Access insight in the console, in headless Chromium against a real apiserver (RBAC, the content module) and
// controller-manager: who can on object, user and role pages, "why?" beside actions one may not take, the
// impact of a role change before saving (the loud warning when anyone would gain), conditions in the role
// editor, the picture of a role and the Audit page with its live tail; for the super administrator and for a
// delegated administrator built from the Console templates (users, access insight, audit).

jest.setTimeout(60_000);

const PLUGINS = '/apis/plugin.svc.run/v1alpha1/plugins';

const suite = useConsoleSuite('console-insight', {
  server: { builtinPlugins: true },
  prepare: async (api) => {
    await waitFor(async () => (await api.admin('GET', `${PLUGINS}/content`)).body?.status?.phase === 'STARTED', {
      what: 'the content module to start',
      timeoutMs: 30_000,
    });
    await createUser(api, 'carol', 'carol-password');
    await createUser(api, 'dora', 'dora-password');
    await createRole(api, 'console-delegate', [], {
      annotations: {
        'rbac.authorization.svc.run/display-name': 'Console delegate',
        'rbac.authorization.svc.run/dependencies': '["users-manage", "roles-view", "access-view", "audit-view"]',
      },
    });
    await bind(api, 'dora', 'console-delegate');
    await untilComputed(api, 'console-delegate', 'system:audit:view');
  },
});
let api: RbacApi;
beforeAll(() => {
  api = suite.api;
});
const open = (path: string, expectedFailures: string[] = []): Promise<Page> => suite.open(path, expectedFailures);

/** Waits until the controller-manager has computed a role's effective UI permissions, `permission` among them. */
async function untilComputed(on: RbacApi, name: string, permission: string): Promise<void> {
  await waitFor(
    async () => ((await on.admin('GET', `${ROLES}/${name}`)).body?.status?.uiPermissions ?? []).includes(permission),
    { what: `${name}'s effective UI permissions`, timeoutMs: 30_000 },
  );
}

async function noSeriousViolations(page: Page): Promise<void> {
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
}

it('shows the super administrator who can act on an object, with the path that grants it', async () => {
  const page = await open('/console/models/core/v1alpha1/users/carol');
  await logIn(page, 'admin', TEST_ADMIN_PASSWORD);
  const panel = page.getByRole('region', { name: 'Who can' });
  await panel
    .getByRole('status')
    .filter({ hasText: /can get it/ })
    .waitFor();
  await panel.getByRole('link', { name: 'admin', exact: true }).waitFor();
  expect(await panel.textContent()).toContain('super-role');
  await page.getByLabel('Verb', { exact: true }).selectOption('delete');
  await panel
    .getByRole('status')
    .filter({ hasText: /can delete it/ })
    .waitFor();
  await noSeriousViolations(page);
  await screenshot(page, 'insight-who-can-object');
});

it('builds a role with a condition, shows the 422 under the field, the impact before saving and its picture', async () => {
  // The role refused (422) is refused by the impact review too (it reviews the role as it would be written).
  const page = await open('/console/roles/+new', ['/api/v1alpha1/roles', '/accessimpactreviews']);
  await logIn(page, 'admin', TEST_ADMIN_PASSWORD);
  await page.getByLabel('Name', { exact: true }).fill('own-post-editor');
  await page.getByLabel('Display name').fill('Own post editor');
  await page.getByRole('group', { name: 'Posts' }).getByRole('checkbox', { name: 'Contributor' }).check();
  await page.getByRole('button', { name: 'Add a rule' }).click();
  await page.getByLabel('API groups').fill('content.svc.run');
  await page.getByLabel('Resources').fill('posts');
  await page.getByLabel('Verbs').fill('get, update');
  // Bound to nobody yet: the impact (asked again as the draft changes) is nobody's.
  await page.getByRole('region', { name: 'Impact of this change' }).getByText('No user’s access changes.').waitFor();
  await page.getByLabel('Only where fields match').fill('spec.title=');
  await page.getByRole('button', { name: /Insert \$\{user\.name\} in rule 1/ }).click();
  expect(await page.getByLabel('Only where fields match').inputValue()).toBe('spec.title=${user.name}');
  await page.getByRole('button', { name: 'Create role' }).click();
  // A field the posts model does not index: refused, and said under the field it concerns.
  const refusal = page.locator('[id="field-rules[0].where-error"]');
  await refusal.waitFor();
  expect(await refusal.textContent()).toMatch(/spec\.title/);
  await noSeriousViolations(page);
  await screenshot(page, 'insight-role-condition-refused');

  await page.getByLabel('Only where fields match').fill('');
  await page.getByRole('button', { name: /Insert \$\{user\.name\} in rule 1/ }).click();
  expect(await page.getByLabel('Only where fields match').inputValue()).toBe('spec.owner=${user.name}');
  await page.getByRole('button', { name: 'Create role' }).click();
  await page.getByRole('heading', { name: 'Role Own post editor' }).waitFor();
  const saved = (await api.admin('GET', `${ROLES}/own-post-editor`)).body;
  expect(saved.rules).toEqual([
    {
      apiGroups: ['content.svc.run'],
      resources: ['posts'],
      verbs: ['get', 'update'],
      where: { fieldSelector: 'spec.owner=${user.name}' },
    },
  ]);
  await untilComputed(api, 'own-post-editor', 'uc:posts:contribute');
  await page.reload();
  const picture = page.getByRole('img', { name: /How role own-post-editor gets its rules/ });
  await picture.waitFor();
  const figure = page.locator('figure.role-graph');
  expect(await figure.textContent()).toContain('own-post-editor depends on post-contributor');
  await noSeriousViolations(page);
  await screenshot(page, 'insight-role-picture');
});

it('shows the impact of assigning a role, and what the user then can do in words (conditions read out)', async () => {
  if ((await api.admin('GET', `${ROLES}/own-post-editor`)).status !== 200)
    throw new Error('the previous test makes the own-post-editor role');
  const page = await open('/console/users/carol');
  await logIn(page, 'admin', TEST_ADMIN_PASSWORD);
  await page.getByRole('checkbox', { name: 'Own post editor' }).check();
  const impact = page.getByRole('region', { name: 'Impact of this change' });
  await impact.getByText('1 user would change.').waitFor();
  expect(await impact.textContent()).toContain('uc:posts:contribute');
  expect(await impact.textContent()).toMatch(/get, update posts \(content\.svc\.run\) where spec\.owner = carol/);
  await noSeriousViolations(page);
  await screenshot(page, 'insight-assign-impact');
  await page.getByRole('button', { name: 'Save roles' }).click();
  await page.getByText('Roles saved.').waitFor();

  const grants = page.getByRole('region', { name: 'What carol can do' });
  await waitFor(
    async () => {
      await page.reload();
      await grants
        .getByText(/only where spec\.owner = carol/)
        .first()
        .waitFor({ timeout: 5_000 });
      return true;
    },
    { what: "carol's conditional grants", timeoutMs: 30_000 },
  );
  expect(await grants.textContent()).toMatch(/posts \(content\.svc\.run\).*update only where spec\.owner = carol/);
  await screenshot(page, 'insight-user-grants');
});

it('warns loudly before a change that would let anyone, even without logging in, do something', async () => {
  const page = await open('/console/roles/anonymous/edit');
  await logIn(page, 'admin', TEST_ADMIN_PASSWORD);
  await page.getByRole('group', { name: 'Console' }).getByRole('checkbox', { name: 'View users' }).check();
  const warning = page.getByRole('alert').filter({ hasText: 'Anyone, even without logging in, would gain' });
  await warning.waitFor();
  expect(await warning.textContent()).toContain('get, list, watch users (core)');
  await noSeriousViolations(page);
  await screenshot(page, 'insight-anonymous-warning');
  expect(JSON.stringify((await api.admin('GET', `${ROLES}/anonymous`)).body)).not.toContain('users-view');
});

it('lists audit records with filters and follows new ones live, pausing on request', async () => {
  const page = await open('/console/');
  await logIn(page, 'admin', TEST_ADMIN_PASSWORD);
  await mainMenu(page).filter({ hasText: 'Audit' }).click();
  await page.getByRole('heading', { name: 'Audit' }).waitFor();
  await page.getByRole('table', { name: 'Audit records, newest first' }).waitFor();
  await page.getByRole('button', { name: 'Follow live' }).click();
  await page.getByText('Live: new records appear at the top.').waitFor();
  expect((await api.admin('POST', USERS, { metadata: { name: 'erin' }, spec: {} })).status).toBe(201);
  expect((await api.admin('PUT', `${USERS}/erin/password`, { password: 'erin-password' })).status).toBe(200);
  const firstRow = page.getByRole('table').getByRole('row').nth(1);
  await waitFor(async () => /users\/password erin/.test((await firstRow.textContent()) ?? ''), {
    what: 'the new record at the top of the live tail',
  });
  await noSeriousViolations(page);
  await screenshot(page, 'insight-audit-live');
  await page.getByRole('button', { name: 'Pause live tail' }).click();
  await page.getByText('Paused.').waitFor();
  expect((await api.admin('DELETE', `${USERS}/erin`)).status).toBeLessThan(300);

  await page.getByLabel('User', { exact: true }).fill('admin');
  await page.getByLabel('Verb', { exact: true }).selectOption('delete');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await waitFor(
    async () => {
      const rows = await page.getByRole('table').getByRole('row').allTextContents();
      return rows.length > 1 && rows.slice(1).every((r) => /admin/.test(r) && /delete/.test(r));
    },
    { what: "only admin's deletes" },
  );
  expect(await page.getByText('users erin').count()).toBeGreaterThan(0);
  await screenshot(page, 'insight-audit-filtered');
});

it('gives a delegated administrator access insight and the audit log, and says why an action is not theirs', async () => {
  // A refusal of dora's, to find in the audit log.
  const dora = api.as(basic('dora', 'dora-password'));
  expect((await dora('DELETE', `${ROLES}/users-view`)).status).toBe(403);

  const page = await open('/console/');
  await logIn(page, 'dora', 'dora-password');
  await waitFor(async () => (await mainMenu(page).allTextContents()).includes('Audit'), {
    what: 'the Audit menu entry',
  });
  expect(await mainMenu(page).allTextContents()).not.toContain('Models');

  // A role page: editing is not dora's (no system:roles:manage, no update on roles): disabled, with a why.
  await page.goto(`${api.server.url}/console/roles/users-view`);
  await page.getByRole('heading', { name: 'Role View users' }).waitFor();
  const edit = page.getByRole('button', { name: 'Edit role' });
  await page.getByRole('button', { name: "Why can't I edit this role?" }).click();
  expect(await edit.isDisabled()).toBe(true);
  const why = page.getByRole('note', { name: 'Why you cannot edit this role' });
  expect(await why.textContent()).toContain('system:roles:manage');
  expect(await why.textContent()).toMatch(/Closest rule: .*in Role/);
  await page.getByRole('region', { name: 'Who can' }).getByRole('status').waitFor();
  await noSeriousViolations(page);
  await screenshot(page, 'insight-delegated-why');

  // A user page: disabling carol is dora's; who can and what carol can do are shown.
  await page.goto(`${api.server.url}/console/users/carol`);
  await waitFor(async () => !(await page.getByRole('button', { name: 'Disable' }).isDisabled()), {
    what: 'Disable enabled for dora',
  });
  await page
    .getByRole('region', { name: 'What carol can do' })
    .getByText(/UI permissions/)
    .waitFor();
  await noSeriousViolations(page);
  await screenshot(page, 'insight-delegated-user');

  await page.goto(`${api.server.url}/console/audit`);
  await page.getByLabel('User', { exact: true }).fill('dora');
  await page.getByLabel('Decision').selectOption('deny');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  const table = page.getByRole('table', { name: 'Audit records, newest first' });
  await waitFor(async () => /roles users-view/.test((await table.textContent()) ?? ''), {
    what: "dora's refused delete in the audit log",
  });
  expect(await table.textContent()).toContain('denied (403)');
  await noSeriousViolations(page);
  await screenshot(page, 'insight-delegated-audit');
});

it('shows a limited user on Me what they can do: rules by resource, conditions in words, their origin', async () => {
  // carol holds own-post-editor (assigned above), and nothing that lets her review anyone else.
  const carol = api.as(basic('carol', 'carol-password'));
  if (!((await carol('GET', '/apis/api.console.svc.run/v1alpha1/users/-/permissions')).body?.roles ?? []).length)
    throw new Error('an earlier test assigns carol the own-post-editor role');
  const whatCan = '/apis/authorization.svc.run/v1alpha1/subjectrulesreviews';
  expect((await carol('POST', whatCan, { spec: { user: 'admin' } })).status).toBe(403);

  const page = await open('/console/me');
  await logIn(page, 'carol', 'carol-password');
  const grants = page.getByRole('region', { name: 'What you can do' });
  await grants.getByText('posts (content.svc.run)', { exact: true }).first().waitFor();
  const text = (await grants.textContent()) ?? '';
  expect(text).toMatch(/update only where spec\.owner = you/);
  expect(text).toMatch(/through own-post-editor(?: → post-contributor)? \(binding [^)]+\)/);
  expect(text).toContain('uc:posts:contribute');
  await grants.getByText(/What every signed-in user may do/).click();
  await noSeriousViolations(page);
  await screenshot(page, 'insight-me-grants');
});

it('keeps the Audit page and who-can panels from users without their UI permissions', async () => {
  const page = await open('/console/audit');
  await logIn(page, 'carol', 'carol-password');
  await page.getByText('You do not have access to this page.').waitFor();
  expect(await mainMenu(page).allTextContents()).not.toContain('Audit');
  await screenshot(page, 'insight-no-audit');
});
