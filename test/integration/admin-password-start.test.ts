import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, startTestApiServer } from '../support/apiserver';
import { captureLog, LEVEL, type LogLine } from '../support/log-capture';
import { sharedRedisUrl, uniqueKeyPrefix } from '../support/redis';
import { basic } from '../support/security';
import { waitFor } from '../support/wait-for';

// What a start does with the admin password it is given, or makes up, once `admin` exists or not.
const PERMISSIONS = '/apis/api.console.svc.run/v1alpha1/users/-/permissions';
const dir = mkdtempSync(join(tmpdir(), 'admin-password-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ignored = (lines: LogLine[]) => lines.filter((l) => l.level === LEVEL.warn && /was ignored/.test(l.msg ?? ''));

/** Starts an RBAC apiserver on `store`, runs `check` with its log lines and URL, and stops it. */
async function withStart(
  store: string,
  config: { adminPassword?: string; adminPasswordOutFile?: string },
  check: (lines: LogLine[], url: string) => Promise<void>,
) {
  const captured = captureLog('info');
  const server = await startTestApiServer({ authorizationMode: 'RBAC', store, ...config }, captured.log);
  try {
    await check(captured.lines, server.url);
  } finally {
    await server.stop();
  }
}

const loginStatus = async (url: string, password: string) =>
  (await client(url, basic('admin', password))('GET', PERMISSIONS)).status;

it('warns, saying how to set it, when a start is given the admin password but admin already has one', async () => {
  const store = `${sharedRedisUrl()}?keyPrefix=${uniqueKeyPrefix('admin-given')}`;
  await withStart(store, { adminPassword: 'first-password-1' }, async (lines) => {
    expect(ignored(lines)).toEqual([]);
  });
  await withStart(store, { adminPassword: 'second-password-2' }, async (lines, url) => {
    const [warning] = ignored(lines);
    expect(warning).toMatchObject({ user: 'admin' });
    expect(warning.msg).toContain('SVC_ADMIN_PASSWORD');
    expect(warning.msg).toContain('already exists');
    expect(warning.msg).toContain('PUT /api/v1alpha1/users/admin/password');
    expect(JSON.stringify(lines)).not.toContain('second-password-2');
    await waitFor(async () => (await loginStatus(url, 'first-password-1')) === 200, { what: 'admin to log in' });
    expect(await loginStatus(url, 'second-password-2')).toBe(401);
  });
  await withStart(store, { adminPassword: undefined }, async (lines) => {
    expect(ignored(lines)).toEqual([]);
  });
});

it('writes the random first password to a 0600 file and logs its path, not the password, when asked to', async () => {
  const store = `${sharedRedisUrl()}?keyPrefix=${uniqueKeyPrefix('admin-random')}`;
  const file = join(dir, 'data', 'admin-password');
  await withStart(store, { adminPassword: undefined, adminPasswordOutFile: file }, async (lines, url) => {
    const password = readFileSync(file, 'utf8').trim();
    expect(password).toMatch(/^[\w-]{20}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(lines).toContainEqual(expect.objectContaining({ level: LEVEL.warn, file }));
    expect(JSON.stringify(lines)).not.toContain(password);
    await waitFor(async () => (await loginStatus(url, password)) === 200, { what: 'admin to log in' });
  });
});

it('prints the random first password on stderr when no file is asked for (a terminal)', async () => {
  const store = `${sharedRedisUrl()}?keyPrefix=${uniqueKeyPrefix('admin-printed')}`;
  let printed = '';
  const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    printed += String(chunk);
    return true;
  });
  try {
    await withStart(store, { adminPassword: undefined }, async (_lines, url) => {
      write.mockRestore();
      const password = /created with the password: +(\S+)/.exec(printed)?.[1] ?? '';
      await waitFor(async () => (await loginStatus(url, password)) === 200, { what: 'admin to log in' });
    });
  } finally {
    write.mockRestore();
  }
});
