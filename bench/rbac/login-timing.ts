#!/usr/bin/env node
import { Command } from 'commander';
import pino from 'pino';
import { startApiServer, type RunningApiServer } from '../../pkg/server/app';
import { describeHost, hostInfo } from '../support/machine-info';
import { parseCommandLine, positiveInt } from '../support/options';
import { formatMs, renderTable } from '../support/report';
import { runBench } from '../support/run-bench';
import { summarizeLatencies, type LatencySummary } from '../support/latency-stats';

/** What the login timing can be told; see `--help`. */
interface LoginTimingOptions {
  /** Timed attempts per kind of user. */
  attempts: number;
  /** Wrong logins in flight during the flood part. */
  flood: number;
}

const ADMIN_PASSWORD = 'login-timing-admin-password';
const USERS = '/api/v1alpha1/users';

/**
 * How long a wrong Basic login takes for a user who exists and for a name
 * that does not (they must not differ: the name would be revealed), then the
 * same while `--flood` wrong logins for another user are in flight (password
 * checks are bounded: a login waits a bounded time or is answered 503).
 * The flood's clients share this process with the server, so the flood's
 * figures include their CPU.
 * One apiserver in this process on `memory://`, with failed-login limits
 * high enough never to answer 429.
 *
 * @example npm run build && node dist/bench/rbac/login-timing.js --attempts 200 --flood 64
 */
runBench('login timing', async () => {
  const program = new Command('login-timing')
    .description('Times wrong Basic logins for a real user and an unknown name, quiet and under a flood.')
    .option('--attempts <n>', 'timed attempts per kind of user (default 100)', positiveInt)
    .option('--flood <n>', 'wrong logins in flight during the flood (default 64)', positiveInt);
  const opts: LoginTimingOptions = {
    attempts: 100,
    flood: 64,
    ...parseCommandLine<Partial<LoginTimingOptions>>(program, process.argv.slice(2)),
  };
  console.log(`svc login timing, ${new Date().toISOString()}`);
  for (const line of describeHost(hostInfo())) console.log(`  ${line}`);
  const server = await startApiServer(
    {
      listen: '127.0.0.1:0',
      store: 'memory://',
      authorizationMode: 'RBAC',
      adminPassword: ADMIN_PASSWORD,
      maxBodyBytes: 1024 * 1024,
      watchTimeoutSeconds: 1800,
      watchRetention: 1000,
      builtinPlugins: false,
      loginLimits: { perUser: 1_000_000_000, perAddress: 1_000_000_000 },
    },
    pino({ level: 'silent' }),
  );
  try {
    await createUser(server, 'known', 'known-user-password');
    await createUser(server, 'target', 'target-user-password');
    await login(server, 'nobody', 'warm-up');
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < opts.attempts; i++) {
      known.push(await timedLogin(server, 'known', `wrong-${i}`));
      unknown.push(await timedLogin(server, `unknown-${i}`, `wrong-${i}`));
    }
    const flood = await underFlood(server, opts);
    const row = (what: string, s: LatencySummary, extra = '') => [
      what,
      String(s.count),
      formatMs(s.p50),
      formatMs(s.p99),
      formatMs(s.max),
      extra,
    ];
    console.log(
      `\n${renderTable(
        ['wrong Basic login', 'attempts', 'p50', 'p99', 'max', 'answers'],
        [
          row('existing user', summarizeLatencies(known)),
          row('unknown name', summarizeLatencies(unknown)),
          row(`existing user, ${opts.flood} in flight`, summarizeLatencies(flood.samples), flood.answers),
        ],
      )}`,
    );
  } finally {
    await server.stop();
  }
});

/** Times the measured user's logins while `opts.flood` loops send wrong passwords for another user. */
async function underFlood(
  server: RunningApiServer,
  opts: LoginTimingOptions,
): Promise<{ samples: number[]; answers: string }> {
  const counts = new Map<number, number>();
  let running = true;
  let n = 0;
  const loop = async () => {
    while (running) {
      const status = await login(server, 'target', `flood-${n++}`);
      counts.set(status, (counts.get(status) ?? 0) + 1);
    }
  };
  const loops = Array.from({ length: opts.flood }, loop);
  const samples: number[] = [];
  const measured = new Map<number, number>();
  for (let i = 0; i < opts.attempts; i++) samples.push(await timedLogin(server, 'known', `flooded-${i}`, measured));
  running = false;
  await Promise.all(loops);
  return { samples, answers: `${tally(measured)}; flood: ${tally(counts)}` };
}

/** `401×12 503×3`: how many answers had each status. */
const tally = (counts: Map<number, number>) =>
  [...counts]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');

async function timedLogin(
  server: RunningApiServer,
  user: string,
  password: string,
  counts?: Map<number, number>,
): Promise<number> {
  const start = performance.now();
  const status = await login(server, user, password);
  const ms = performance.now() - start;
  counts?.set(status, (counts.get(status) ?? 0) + 1);
  return ms;
}

async function login(server: RunningApiServer, user: string, password: string): Promise<number> {
  const res = await fetch(`${server.url}/apis/api.console.svc.run/v1alpha1/users/-`, {
    headers: { Authorization: basic(user, password) },
  });
  await res.arrayBuffer();
  return res.status;
}

async function createUser(server: RunningApiServer, name: string, password: string): Promise<void> {
  const headers = { Authorization: basic('admin', ADMIN_PASSWORD), 'Content-Type': 'application/json' };
  const created = await fetch(`${server.url}${USERS}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ metadata: { name }, spec: {} }),
  });
  const set = await fetch(`${server.url}${USERS}/${name}/password`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ password }),
  });
  if (created.status !== 201 || set.status !== 200)
    throw new Error(`creating ${name}: ${created.status} ${await created.text()}; ${set.status} ${await set.text()}`);
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
