import { createRequire } from 'node:module';
import { join } from 'node:path';

// The part of playwright-core's API this benchmark drives, written out here: playwright-core is a test
// dependency of the console (console/package.json), so the server's build (`npm run build`) cannot name its
// types when only the server's packages are installed. The benchmark loads it at run time (`make bench`
// installs the console first).

/** An element query that can be waited for. */
export interface Locator {
  nth(index: number): Locator;
  waitFor(): Promise<void>;
}

export interface Page {
  goto(url: string): Promise<unknown>;
  locator(selector: string): Locator;
  getByRole(role: 'button', options: { name: string }): Locator;
  getByText(text: string): Locator;
  /** Runs `script` (a string: the benchmark has no DOM types) in the page; answers its value. */
  evaluate<T = unknown>(script: string): Promise<T>;
}

export interface BrowserContext {
  addInitScript(script: string): Promise<void>;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export interface Browser {
  newContext(): Promise<BrowserContext>;
  close(): Promise<void>;
}

interface BrowserType {
  launch(options: { executablePath: string; args: string[] }): Promise<Browser>;
}

/** playwright-core's Chromium from the console's install under `root`; a clear error when it is not installed. */
export function consoleChromium(root: string): BrowserType {
  const consoleRequire = createRequire(join(root, 'console', 'package.json'));
  try {
    return (consoleRequire('playwright-core') as { chromium: BrowserType }).chromium;
  } catch (err) {
    throw new Error(
      `the console benchmark needs the console's packages (playwright-core): run \`make console-install\`: ${(err as Error).message}`,
    );
  }
}
