import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '../../console/node_modules/playwright-core';
import { TEST_ADMIN_PASSWORD } from '../support/apiserver';
import { logIn, mainMenu, screenshot, seriousAccessibilityViolations } from '../support/browser';
import { useConsoleSuite } from '../support/console-suite';
import { applyPersonModel, PERSONS, person } from '../support/person';
import { createUser, expectStatus, type RbacApi } from '../support/security';
import { waitFor } from '../support/wait-for';

// Defects found in the browser (and the YAML editor under the real Content-Security-Policy), each checked where it
// showed: in headless Chromium against a real apiserver (RBAC)
// and controller-manager, with the example plugin (People) installed.

const PLUGINS = '/apis/plugin.svc.run/v1alpha1/plugins';

jest.setTimeout(60_000);

const suite = useConsoleSuite('console-defects', {
  plugins: (dir) =>
    cpSync(join(__dirname, '..', '..', 'examples', 'plugins', 'people'), join(dir, 'people'), { recursive: true }),
  prepare: async (api) => {
    await waitFor(async () => (await api.admin('GET', `${PLUGINS}/people`)).body?.status?.phase === 'STARTED', {
      what: 'the people plugin to start',
      timeoutMs: 30_000,
    });
    await createUser(api, 'dave', 'dave-password');
  },
});
let api: RbacApi;
beforeAll(() => {
  api = suite.api;
});
const open = (path: string, expectedFailures: string[] = [], enforceCSP = false): Promise<Page> =>
  suite.open(path, expectedFailures, { enforceCSP });

it('says why a session ended when an administrator disables the user', async () => {
  // Once dave is disabled every request of his session is answered 401: the permissions poll, and, on a slow
  // machine, the console's first loads after the login (its plugins, the access reviews of its menus) if they are
  // still to come. Whichever meets the 401 first, the console must say why.
  const page = await open('/console/', ['/users/-/permissions', '/consoleplugins', '/accessreviews']);
  await logIn(page, 'dave', 'dave-password');
  const disabled = await api.admin(
    'PATCH',
    '/api/v1alpha1/users/dave',
    { spec: { disabled: true } },
    { 'Content-Type': 'application/merge-patch+json' },
  );
  expectStatus(disabled, 200, 'disabling dave');
  // The next permissions poll gets a 401: the login page says the session ended, and why it can have.
  await page.getByText('Your session ended').waitFor();
  expect(await page.getByRole('alert').textContent()).toMatch(/disabled/);
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  await screenshot(page, 'session-ended');
});

it('draws disabled buttons unlike enabled ones', async () => {
  const page = await open('/console/me');
  await logIn(page, 'admin', TEST_ADMIN_PASSWORD);
  await page.getByRole('heading', { name: 'New token' }).waitFor();
  // (Runs in the page: written as a string, the test's TypeScript has no DOM types.)
  const looks = await page.evaluate<{ enabled: Record<string, string>; disabled: Record<string, string> }>(`(() => {
    const enabled = document.createElement('button');
    const disabled = document.createElement('button');
    disabled.disabled = true;
    document.querySelector('main').append(enabled, disabled);
    const look = (b) => {
      const style = getComputedStyle(b);
      return { color: style.color, background: style.backgroundColor, cursor: style.cursor };
    };
    return { enabled: look(enabled), disabled: look(disabled) };
  })()`);
  expect(looks.disabled.cursor).toBe('not-allowed');
  expect(looks.disabled.color).not.toBe(looks.enabled.color);
  expect(looks.disabled.background).not.toBe(looks.enabled.background);
});

it('fits every page into a 390 px wide screen: tables scroll in their box, nothing widens the page', async () => {
  const page = await open('/console/');
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, 'admin', TEST_ADMIN_PASSWORD);
  const visits: [string, string][] = [
    ['/console/users', 'Users'],
    ['/console/roles/super-role', 'Effective rules'],
    ['/console/roles/+new', 'What this role will grant'],
    ['/console/models', 'Models'],
    ['/console/models/core/v1alpha1/roles', 'roles'],
    ['/console/me', 'Personal access tokens'],
    ['/console/plugins', 'Plugins'],
  ];
  for (const [path, heading] of visits) {
    await page.goto(api.server.url + path);
    await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(`${path}: ${width}`).toBe(`${path}: 390`);
    await screenshot(page, `phone${path.replace(/[/+]+/g, '-')}`);
  }
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

it("takes a disabled plugin's pages out of the menu without a reload, and brings them back when enabled", async () => {
  const page = await open('/console/plugins');
  await logIn(page, 'admin', TEST_ADMIN_PASSWORD);
  await waitFor(async () => (await mainMenu(page).allTextContents()).includes('People'), {
    what: 'People in the menu',
  });
  const card = page.getByRole('region', { name: /People/ });
  await card.getByRole('button', { name: 'Disable people' }).click();
  await card.getByText('Phase: STOPPED').waitFor();
  await waitFor(async () => !(await mainMenu(page).allTextContents()).includes('People'), {
    what: 'People to leave the menu',
  });
  await screenshot(page, 'plugin-disabled-menu');
  await card.getByRole('button', { name: 'Enable people' }).click();
  await card.getByText('Phase: STARTED').waitFor();
  await waitFor(async () => (await mainMenu(page).allTextContents()).includes('People'), {
    what: 'People back in the menu',
  });
});

it("edits YAML in CodeMirror under the console's own Content-Security-Policy, marking a syntax error where it is", async () => {
  await applyPersonModel(api.admin);
  expectStatus(await api.admin('POST', PERSONS, person('ada', { age: 36 })), 201, 'creating ada');
  // No CSP bypass: a style or script the policy refuses is a console error, which fails the test.
  const page = await open('/console/models/example.com/v1alpha1/persons/ada', [], true);
  await logIn(page, 'admin', TEST_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Edit YAML' }).click();
  const editor = page.locator('.cm-editor .cm-content[aria-label="YAML"]');
  await editor.waitFor();
  // CodeMirror's own styles apply (its gutter is a flex box), though the policy refuses inline <style> elements.
  expect(await page.locator('.cm-gutters').evaluate((g) => (globalThis as any).getComputedStyle(g).display)).toBe(
    'flex',
  );
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nbroken: a: b');
  await page.locator('.cm-lint-marker-error').waitFor();
  await screenshot(page, 'yaml-editor-error');
});

it("follows the system's dark scheme with the same tokens, and stays readable (axe's contrast included)", async () => {
  const page = await open('/console/');
  await page.emulateMedia({ colorScheme: 'dark' });
  await logIn(page, 'admin', TEST_ADMIN_PASSWORD);
  for (const path of ['/console/roles/+new', '/console/models/core/v1alpha1/roles', '/console/me']) {
    await page.goto(api.server.url + path);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const background = await page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');
    expect(background).toBe('rgb(27, 28, 29)');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  }
  await screenshot(page, 'dark-me');
});

it("draws the YAML editor in the console's colours, following the system's scheme as it changes", async () => {
  // The Person model may be there already (the CSP test applies it): applied once, whatever ran before.
  if ((await api.admin('GET', PERSONS)).status === 404) await applyPersonModel(api.admin);
  expectStatus(await api.admin('POST', PERSONS, person('lin', { age: 41 })), 201, 'creating lin');
  const page = await open('/console/models/example.com/v1alpha1/persons/lin');
  await page.emulateMedia({ colorScheme: 'dark' });
  await logIn(page, 'admin', TEST_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Edit YAML' }).click();
  await page.locator('.cm-editor .cm-content[aria-label="YAML"]').waitFor();
  const style = (selector: string, property: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((e, p) => (globalThis as any).getComputedStyle(e)[p] as string, property);
  const key = '.cm-content .cm-line:first-child span';
  // The tokens' dark scheme: --surface-code and --code-key.
  expect(await style('.cm-editor', 'backgroundColor')).toBe('rgb(36, 37, 39)');
  expect(await style(key, 'color')).toBe('rgb(138, 180, 248)');
  await screenshot(page, 'yaml-editor-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await waitFor(async () => (await style('.cm-editor', 'backgroundColor')) === 'rgb(248, 249, 250)', {
    what: 'the editor to follow the light scheme',
  });
  expect(await style(key, 'color')).toBe('rgb(23, 78, 166)');
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

it("draws the super administrator's dashboard from /metrics with uPlot, under the console's own CSP", async () => {
  const page = await open('/console/dashboard', [], true);
  await logIn(page, 'admin', TEST_ADMIN_PASSWORD);
  const requests = page.getByText('Requests per second:');
  // The first figure needs two scrapes (2 s apart); the chart is a canvas drawn by uPlot, loaded on this page only,
  // with its stylesheet (.u-wrap is positioned by it).
  await waitFor(async () => !(await requests.textContent())?.includes('…'), { what: 'a requests-per-second figure' });
  // The test server's store is Redis: its memory is the fifth chart, in MiB.
  expect(await page.getByText(/^Redis memory \(used\): \d+\.\d MiB$/).textContent()).toMatch(/[1-9]/);
  // uPlot draws each chart's canvas once its module has loaded, which may come after the figures.
  await waitFor(async () => (await page.locator('.chart canvas').count()) === 5, { what: 'five charts drawn' });
  await waitFor(
    async () =>
      (await page
        .locator('.u-wrap')
        .first()
        .evaluate((e) => (globalThis as any).getComputedStyle(e).position)) === 'relative',
    { what: "uPlot's stylesheet to apply" },
  );
  await page.getByText('people: STARTED').or(page.getByText('People: STARTED')).first().waitFor();
  await screenshot(page, 'dashboard');

  const checked = await open('/console/dashboard');
  await logIn(checked, 'admin', TEST_ADMIN_PASSWORD);
  await checked.locator('.chart canvas').first().waitFor();
  expect(await seriousAccessibilityViolations(checked)).toEqual([]);
});
