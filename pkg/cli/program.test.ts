import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { runSvcctl } from './program';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'svcctl-program-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** Runs svcctl in-process against no server (http://127.0.0.1:9 refuses), capturing its output. */
async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runSvcctl(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    stdin: Readable.from([]),
    env: { SVC_SERVER: 'http://127.0.0.1:9' },
    home,
  });
  return { code, stdout, stderr };
}

const COMMANDS = [
  'login',
  'get',
  'describe',
  'delete',
  'edit',
  'apply',
  'explain',
  'config',
  'config view',
  'config use-context',
  'config kubeconfig',
  'auth',
  'auth whoami',
  'auth can-i',
  'auth explain',
  'roles',
  'roles list',
  'roles assign',
  'plugin',
  'plugin list',
  'plugin status',
  'plugin enable',
  'plugin disable',
];

describe('svcctl', () => {
  it.each(COMMANDS)('svcctl %s --help shows an example and exits 0', async (command) => {
    const result = await run(...command.split(' '), '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Examples?:\n {2}.*svcctl /);
  });

  it.each([
    [['get']],
    [['nonsense']],
    [['get', 'persons', '--bogus']],
    [['describe', 'persons']],
    [['edit', 'persons']],
    [['delete', 'persons']],
    [['delete']],
    [['delete', 'persons', '-f', 'x.yaml']],
    [['delete', 'persons', 'ada', '--wait=maybe']],
    [['apply']],
    [['apply', '-f', 'x.yaml', '--dry-run=client']],
    [['apply', '-f', '/no/such/path']],
    [['apply', '-f', 'x.yaml', '--prune']],
    [['apply', '-f', 'x.yaml', '-l', 'app=web']],
    [['get', 'persons', 'ada', 'grace', '-w']],
    [['get', 'persons', '-o', 'xml']],
    [['config', 'use-context', 'nowhere']],
    [['login', '--server', 'not-a-url', '--username', 'ada']],
  ])('exits 2 on the usage error %j', async (argv: string[]) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: /);
  });

  it('exits 1 when the server cannot be reached', async () => {
    const result = await run('get', 'persons');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: cannot reach the server: /);
  });
});
