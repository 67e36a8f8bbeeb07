import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
// playwright-core and axe-core are the console's test dependencies (console/package.json), not the server's.
import type { Browser, BrowserContext, Page } from '../../console/node_modules/playwright-core';

const consoleRequire = createRequire(join(__dirname, '..', '..', 'console', 'package.json'));
const { chromium } = consoleRequire('playwright-core') as typeof import('../../console/node_modules/playwright-core');

/** Debian's chromium (`.ci/run` and `make test` install it when missing). */
export const CHROMIUM = process.env.SVC_CHROMIUM ?? '/usr/bin/chromium';

/** Where the console's end-to-end tests keep a screenshot of each test (README names it). */
export const SCREENSHOTS = join(__dirname, '..', '..', 'test-results', 'console');

/** A headless Chromium with a fresh profile (playwright makes a new one for each launch and removes it on close). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page and what went wrong in it: uncaught errors, console errors, and failed loads other than `expectedFailures`. */
export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  problems: string[];
  /** Parts of URLs whose error answers the test provokes (the app shows them; Chromium logs them as errors). */
  expectedFailures: string[];
}

/**
 * A new browser context (its own session storage) and page, recording every
 * console error and uncaught exception. Chromium logs every HTTP error answer
 * as a failed load, also those the app shows the user: those of URLs
 * containing one of `expectedFailures` are expected, any other is a problem.
 */
export async function openPage(
  browser: Browser,
  expectedFailures: string[] = [],
  { enforceCSP = false } = {},
): Promise<WatchedPage> {
  // The page's CSP allows its own scripts only; axe-core is injected by the test, so the CSP is bypassed unless
  // the test checks the page under it (and then runs no axe).
  const context = await browser.newContext({ bypassCSP: !enforceCSP });
  // A step that cannot happen fails with its own message before the test's timeout.
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const problems: string[] = [];
  const watched = { context, page, problems, expectedFailures: [...expectedFailures] };
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const url = message.location().url ?? '';
    const expected = watched.expectedFailures.some((part) => url.includes(part));
    if (/^Failed to load resource/.test(message.text()) && expected) return;
    problems.push(`console: ${message.text()} (${url})`);
  });
  return watched;
}

/** Logs in on the console's login form and waits until the page says who is signed in. */
export async function logIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByText(`Signed in as ${username}`).waitFor();
}

/** The links of the console's main menu. */
export const mainMenu = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link');

/** Saves a full-page screenshot as `<SCREENSHOTS>/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** axe-core's serious and critical violations on the page as it is now, as readable lines. */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: consoleRequire.resolve('axe-core/axe.min.js') });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map((v) => ({
      id: v.id as string,
      impact: v.impact as string,
      help: v.help as string,
      targets: (v.nodes as { target: string[] }[]).map((n) => n.target.join(' ')),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.targets.join(', ')}`);
}
