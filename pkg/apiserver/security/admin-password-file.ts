import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ADMIN_USER } from '../../registry/security/bootstrap';
import type { Logger } from '../../util/log';

/** The name of the file the one-time admin password is written to. */
export const ADMIN_PASSWORD_FILE_NAME = 'admin-password';

/**
 * Where the one-time admin password goes when it is not printed: in the store's
 * folder for a `file://` store, else in `data/` under the working directory
 * (a `memory://` or `redis://` store has no folder of its own).
 *
 * @example adminPasswordFileFor('file://./data', '/srv') // '/srv/data/admin-password'
 */
export function adminPasswordFileFor(store: string, cwd: string): string {
  let url: URL | undefined;
  try {
    url = new URL(store);
  } catch {
    url = undefined;
  }
  // As the file store reads it: `file://./data` and `file://data` are relative, `file:///var/lib/svc` is absolute.
  const dir = url?.protocol === 'file:' ? resolve(cwd, decodeURIComponent(url.host + url.pathname)) : join(cwd, 'data');
  return join(dir, ADMIN_PASSWORD_FILE_NAME);
}

/**
 * Writes the one-time admin password to `file` (mode 0600, replacing any
 * earlier one; its folder is made 0700 when missing) and logs the file's path,
 * so that the password stays out of logs that may be kept.
 */
export function writeAdminPasswordFile(file: string, log: Logger): (password: string) => void {
  return (password) => {
    mkdirSync(resolve(file, '..'), { recursive: true, mode: 0o700 });
    rmSync(file, { force: true });
    writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    log.warn(
      { user: ADMIN_USER, file },
      `the super administrator "${ADMIN_USER}" was created with a random password, written to ${file} (mode 0600, ` +
        `not printed because the output is not a terminal): log in with it, change it ` +
        `(PUT /apis/uc.api.security.svc.run/v1alpha1/users/-/password), then delete the file`,
    );
  };
}
