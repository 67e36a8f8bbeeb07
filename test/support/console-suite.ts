import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '../../console/node_modules/playwright-core';
import type { ApiServerConfig } from '../../pkg/server/app';
import { startTestApiServer } from './apiserver';
import { launchChromium, openPage, type WatchedPage } from './browser';
import { startTestControllerManager, stopTestControllerManagers } from './controller-manager';
import { rbacApi, type RbacApi } from './security';

/** A console end-to-end suite's world: an RBAC apiserver, its controller-manager, and a browser. */
export interface ConsoleSuite {
  api: RbacApi;
  browser: Browser;
  /** A fresh browser session at `path`; `expectedFailures`: URLs whose error answers the test provokes. */
  open(path?: string, expectedFailures?: string[], options?: { enforceCSP?: boolean }): Promise<Page>;
}

/** What a suite adds to the common world. */
export interface ConsoleSuiteOptions {
  /** Fills the plugins folder (`--plugins-dir`) before the apiserver starts; without it, there is none. */
  plugins?: (pluginsDir: string) => void;
  server?: Partial<ApiServerConfig>;
  /** Runs once the apiserver and controller-manager are up, before the browser starts (users, roles, waits). */
  prepare?: (api: RbacApi) => Promise<void>;
}

/**
 * Registers a console suite's hooks: before all, the apiserver (RBAC, its controller-manager token and plugins
 * folder in a directory of its own), the controller-manager and Chromium; after each test, every page it opened is
 * closed, and none may have had an uncaught error or an unexpected failed request; after all, everything stops.
 * The returned object is filled in before the suite's own `beforeAll` hooks run.
 */
export function useConsoleSuite(name: string, options: ConsoleSuiteOptions = {}): ConsoleSuite {
  const token = `controller-manager-token-for-the-${name}-test`;
  const pages: WatchedPage[] = [];
  let dir = '';
  const suite = {
    async open(path = '/console/', expectedFailures: string[] = [], { enforceCSP = false } = {}) {
      const watched = await openPage(suite.browser, expectedFailures, { enforceCSP });
      pages.push(watched);
      await watched.page.goto(suite.api.server.url + path);
      return watched.page;
    },
  } as ConsoleSuite;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `svc-${name}-`));
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
    const pluginsDir = join(dir, 'plugins');
    if (options.plugins) {
      mkdirSync(pluginsDir, { recursive: true });
      options.plugins(pluginsDir);
    }
    const server = await startTestApiServer({
      authorizationMode: 'RBAC',
      controllerManagerTokenFile: tokenFile,
      ...(options.plugins ? { pluginsDir } : {}),
      ...options.server,
    });
    suite.api = rbacApi(server);
    await startTestControllerManager(server.url, { token, leaderElection: false });
    await options.prepare?.(suite.api);
    suite.browser = await launchChromium();
  }, 60_000);

  afterEach(async () => {
    const problems = pages.flatMap((p) => p.problems);
    await Promise.all(pages.splice(0).map((p) => p.context.close()));
    expect(problems).toEqual([]);
  });

  afterAll(async () => {
    await suite.browser?.close();
    await stopTestControllerManagers();
    await suite.api?.server.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return suite;
}
