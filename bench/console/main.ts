#!/usr/bin/env node
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import yaml from 'js-yaml';
import { describeMachine, machineInfo } from '../support/machine-info';
import { PATHS } from '../support/paths';
import { formatMs, goalsLine, renderTable, say, verdict } from '../support/report';
import { runBench } from '../support/run-bench';
import { openBenchSession, withBenchSession, type BenchSession } from '../support/session';
import { median } from '../support/stats';
import { startApiserverProcess } from '../support/svc-processes';
import { consoleChromium, type Browser, type Page } from './chromium';

/**
 * The console's budgets (bench/README.md, "console"), in
 * headless Chromium against the real apiserver:
 * - first load of /console/ from a fresh browser context until the login form
 *   is on screen, beside the same browser loading /version (the floor);
 * - a model's table with 1,000 objects until its first page is drawn, beside
 *   the same table with 20 objects (it is paged: the two should be alike);
 * - a logged-in console showing the 1,000-object table while its objects change
 *   100 times a second: the longest gap between animation frames in the page
 *   (a blocking task shows as one), beside the same page with nothing changing;
 * - the JavaScript the first page loads, gzipped (and the parts loaded on demand).
 *
 * @example npm run build && (cd console && npx vite build) && node dist/bench/console/main.js
 */
const ROOT = resolve(__dirname, '../../..');
const RUNS = 7;
const ADMIN_PASSWORD = 'bench-admin-password';
const PERSONS = '/apis/example.com/v1alpha1/persons';

runBench('console', async () => {
  await withBenchSession(await openBenchSession('console'), (session) => run(session));
});

async function run(session: BenchSession): Promise<void> {
  say(`svc console benchmark, ${new Date().toISOString()}`);
  for (const line of describeMachine(await machineInfo(session.client), session.redis.origin)) say(`  ${line}`);
  const passwordFile = join(session.dir, 'admin-password');
  writeFileSync(passwordFile, ADMIN_PASSWORD, { mode: 0o600 });
  const { url } = await startApiserverProcess(session, 'apiserver', {
    mode: 'RBAC',
    args: ['--admin-password-file', passwordFile],
  });
  const call = caller(url);
  await call('POST', '/apis/apiextensions.svc.run/v1alpha1/models', yaml.load(readFileSync(PATHS.personModel, 'utf8')));
  await waitServed(call);
  const token = (
    (await call('POST', '/apis/uc.api.security.svc.run/v1alpha1/personalaccesstokens', {
      metadata: { name: 'console-bench' },
      spec: {},
    })) as { metadata: { annotations: Record<string, string> } }
  ).metadata.annotations['security.svc.run/access-token'];

  const browser = await consoleChromium(ROOT).launch({
    executablePath: process.env.SVC_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  session.onClose(() => browser.close());

  const floor = await repeat(() => timeFresh(browser, `${url}/version`, (page) => page.locator('body').waitFor()));
  const login = await repeat(() =>
    timeFresh(browser, `${url}/console/`, (page) => page.getByRole('button', { name: 'Log in' }).waitFor()),
  );
  await seed(call, 0, 20);
  const table20 = await repeat(() => timeTable(browser, url, token));
  await seed(call, 20, 1000);
  const table1000 = await repeat(() => timeTable(browser, url, token));
  const idle = await longestTask(browser, url, token, undefined);
  const busy = await longestTask(browser, url, token, call);
  report({ floor, login, table20, table1000, idle, busy, js: consoleJsGzip() });
}

type Call = (method: string, path: string, body?: unknown, contentType?: string) => Promise<unknown>;

function caller(url: string): Call {
  const authorization = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
  return async (method, path, body, contentType = 'application/json') => {
    const res = await fetch(url + path, {
      method,
      headers: { Authorization: authorization, 'Content-Type': contentType },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
}

async function waitServed(call: Call): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (
    !(await call('GET', PERSONS).then(
      () => true,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) throw new Error('the persons API is not served after 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Persons `p-<from>` … `p-<to - 1>`, 20 in flight. */
async function seed(call: Call, from: number, to: number): Promise<void> {
  for (let at = from; at < to; at += 20) {
    const batch = Array.from({ length: Math.min(20, to - at) }, (_, i) => at + i);
    await Promise.all(
      batch.map((n) =>
        call('POST', PERSONS, {
          apiVersion: 'example.com/v1alpha1',
          kind: 'Person',
          metadata: { name: `p-${String(n).padStart(4, '0')}` },
          spec: { name: `Person ${n}`, age: n % 100 },
        }),
      ),
    );
  }
}

async function repeat(measure: () => Promise<number>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await measure());
  return samples;
}

/** Milliseconds from navigating a fresh browser context (empty cache) to `ready`. */
async function timeFresh(browser: Browser, url: string, ready: (page: Page) => Promise<void>, token?: string) {
  const context = await browser.newContext();
  if (token) {
    const session = JSON.stringify({ token, username: 'admin' });
    await context.addInitScript(`sessionStorage.setItem('svc.console.session', ${JSON.stringify(session)})`);
  }
  const page = await context.newPage();
  const started = performance.now();
  await page.goto(url);
  await ready(page);
  const ms = performance.now() - started;
  await context.close();
  return ms;
}

/** A logged-in console opening the persons table, until its first 20 rows are drawn. */
const timeTable = (browser: Browser, url: string, token: string) =>
  timeFresh(
    browser,
    `${url}/console/models/example.com/v1alpha1/persons`,
    (page) => page.locator('tbody tr').nth(19).waitFor(),
    token,
  );

/** A long animation frame, with what ran in it. */
interface LongFrame {
  duration: number;
  scripts: { what: string; ms: number; source: string }[];
}

/** What a page did over the live-update run: the longest frame gap, its long tasks and long frames. */
interface LiveFigures {
  longest: number;
  tasks: number[];
  frames: LongFrame[];
  /** How often the table's rows changed on screen, and how many pages of rows were read meanwhile. */
  redraws: number;
  reads: number;
  /** Watch events the page received. */
  events: number;
  changesPerSecond: number;
}

/** How long the live updates run, and how many changes a second they make. */
const CHANGE_SECONDS = 5;
const CHANGES_PER_SECOND = 100;

/**
 * The longest main-thread task (ms) of a logged-in console showing the
 * 1,000-object table for CHANGE_SECONDS, while `call` (when given) changes
 * CHANGES_PER_SECOND persons a second (merge patches, paced), else idle.
 */
async function longestTask(browser: Browser, url: string, token: string, call?: Call): Promise<LiveFigures> {
  const context = await browser.newContext();
  const session = JSON.stringify({ token, username: 'admin' });
  await context.addInitScript(`sessionStorage.setItem('svc.console.session', ${JSON.stringify(session)})`);
  // Counts the watch events the page receives (every WebSocket message).
  await context.addInitScript(`(() => {
    window.watchEvents = 0;
    const Native = WebSocket;
    window.WebSocket = class extends Native {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', () => window.watchEvents++);
      }
    };
  })()`);
  const page = await context.newPage();
  await page.goto(`${url}/console/models/example.com/v1alpha1/persons`);
  await page.locator('tbody tr').nth(19).waitFor();
  await page.getByText('Live:').waitFor();
  // (Runs in the page: a string, as the benchmark's TypeScript has no DOM types.)
  // Long tasks (PerformanceObserver "longtask": every main-thread task of 50 ms or more) and long animation frames
  // (those over 50 ms, with the scripts that ran in them, to tell what took the time); and the longest gap between
  // two animation frames, which also shows time the page did not get the CPU at all.
  await page.evaluate(`(() => {
    window.longest = 0;
    window.longTasks = [];
    window.longFrames = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.longTasks.push(e.duration);
    }).observe({ type: 'longtask' });
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries())
          window.longFrames.push({
            duration: e.duration,
            scripts: (e.scripts || []).map((s) => ({ what: s.invoker || s.name, ms: s.duration, source: s.sourceFunctionName || '' })),
          });
      }).observe({ type: 'long-animation-frame' });
    } catch {}
    window.redraws = 0;
    new MutationObserver(() => window.redraws++).observe(document.querySelector('table'), {
      childList: true, subtree: true, characterData: true,
    });
    window.listReads = () => performance.getEntriesByType('resource').filter((e) => e.name.includes('/persons?')).length;
    window.readsBefore = window.listReads();
    window.eventsBefore = window.watchEvents;
    let last = performance.now();
    const frame = (now) => {
      window.longest = Math.max(window.longest, now - last);
      last = now;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })()`);
  const started = performance.now();
  const patches: Promise<boolean>[] = [];
  // Each time the benchmark gets the CPU it sends every change due by then (a timer per change falls behind on a
  // loaded machine), in at most 10 HTTP connections.
  let sent = 0;
  for (let elapsed = 0; elapsed < CHANGE_SECONDS * 1000; elapsed = performance.now() - started) {
    const due = Math.min(Math.floor((elapsed * CHANGES_PER_SECOND) / 1000) + 1, CHANGE_SECONDS * CHANGES_PER_SECOND);
    for (; call && sent < due; sent++) patches.push(patchAge(call, sent));
    await new Promise((r) => setTimeout(r, 10));
  }
  // Let the last changes arrive and be drawn.
  await new Promise((r) => setTimeout(r, 1000));
  const longest = await page.evaluate<number>('window.longest');
  const tasks = await page.evaluate<number[]>('window.longTasks');
  const frames = await page.evaluate<LongFrame[]>('window.longFrames');
  const redraws = await page.evaluate<number>('window.redraws');
  const reads = await page.evaluate<number>('window.listReads() - window.readsBefore');
  const events = await page.evaluate<number>('window.watchEvents - window.eventsBefore');
  await context.close();
  const applied = (await Promise.all(patches)).filter(Boolean).length;
  if (call) say(`  (${patches.length} changes sent, ${applied} applied)`);
  return { longest, tasks, frames, redraws, reads, events, changesPerSecond: applied / CHANGE_SECONDS };
}

let failureSaid = false;

/**
 * Changes one person's age; whether the server took it (the first failure is said). Every other change is to a row
 * on the page shown (the 20 newest, p-0980 … p-0999), the others to objects elsewhere in the collection.
 */
function patchAge(call: Call, n: number): Promise<boolean> {
  const index = n % 2 === 0 ? 999 - ((n / 2) % 20) : Math.floor(n / 2) % 980;
  const name = `p-${String(index).padStart(4, '0')}`;
  return call('PATCH', `${PERSONS}/${name}`, { spec: { age: (n + 1) % 100 } }, 'application/merge-patch+json').then(
    () => true,
    (err: Error) => {
      if (!failureSaid) say(`  a change failed: ${err.message.slice(0, 200)}`);
      failureSaid = true;
      return false;
    },
  );
}

/** The JavaScript index.html loads (every first page), and each part loaded on demand, gzipped. */
function consoleJsGzip(): { firstPage: number; onDemand: Record<string, number> } {
  const dist = join(ROOT, 'console', 'dist');
  const gz = (f: string) => gzipSync(readFileSync(join(dist, 'assets', f))).length;
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const first = [...html.matchAll(/\/console\/assets\/([^"]+\.js)"/g)].map((m) => m[1]);
  const rest = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js') && !first.includes(f));
  return {
    firstPage: first.reduce((sum, f) => sum + gz(f), 0),
    onDemand: Object.fromEntries(rest.map((f) => [f.replace(/-[\w-]{8}\.js$/, ''), gz(f)])),
  };
}

function report(r: {
  floor: number[];
  login: number[];
  table20: number[];
  table1000: number[];
  idle: LiveFigures;
  busy: LiveFigures;
  js: ReturnType<typeof consoleJsGzip>;
}): void {
  const row = (what: string, samples: number[]) => [
    what,
    formatMs(median(samples)),
    formatMs(Math.min(...samples)),
    formatMs(Math.max(...samples)),
  ];
  say(`\nHeadless Chromium, fresh browser context each run (empty cache), ${RUNS} runs; milliseconds`);
  say(
    renderTable(
      ['page', 'median', 'min', 'max'],
      [
        row('/version (baseline: the browser and server floor)', r.floor),
        row('/console/ until the login form is on screen', r.login),
        row('persons table, 20 objects (baseline), first page drawn', r.table20),
        row('persons table, 1,000 objects, first page drawn', r.table1000),
      ],
    ),
  );
  const ratio = median(r.table1000) / median(r.table20);
  say(`Table 1,000 / 20 objects: ${ratio.toFixed(2)}x (paged: 20 rows a page whatever the collection's size)`);
  const tasks = (f: LiveFigures) =>
    `${f.tasks.length} long tasks (>= 50 ms), longest ${formatMs(Math.max(0, ...f.tasks))}; ` +
    `longest gap between frames ${formatMs(f.longest)}; ${f.events} watch events received, table redrawn ${f.redraws} times, ${f.reads} pages read`;
  say(
    `1,000-object table, ${r.busy.changesPerSecond.toFixed(0)} changes/s applied for ${CHANGE_SECONDS} s: ` +
      `${tasks(r.busy)} (same page, nothing changing: ${tasks(r.idle)})`,
  );
  for (const frame of r.busy.frames.sort((a, b) => b.duration - a.duration).slice(0, 5)) {
    const scripts = frame.scripts.map((s) => `${s.what}${s.source ? ` (${s.source})` : ''} ${formatMs(s.ms)}`);
    say(`  long frame ${formatMs(frame.duration)}: ${scripts.join('; ') || 'no script (layout, paint or waiting)'}`);
  }
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const parts = Object.entries(r.js.onDemand).map(([name, bytes]) => `${name} ${kb(bytes)}`);
  say(`Console JavaScript, gzipped: first page ${kb(r.js.firstPage)}; on demand: ${parts.join(', ')}`);
  say(
    `\n${goalsLine([
      verdict(median(r.login) < 1000),
      verdict(r.js.firstPage < 120 * 1024),
      verdict(median(r.table1000) < 1000 && ratio < 1.5),
      verdict(r.busy.tasks.length === 0 && r.busy.changesPerSecond >= CHANGES_PER_SECOND * 0.9),
    ])}  (first load < 1 s; first page's JavaScript < 120 KB gzipped; 1,000-object table as fast as 20, < 1 s; ` +
      `under 100 changes/s no task of 50 ms or more)`,
  );
}
