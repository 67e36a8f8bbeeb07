import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { lockPath } from './layout';

/** A held lock on a store directory. */
export interface DirectoryLock {
  /** Gives the directory up (removes the lock file). */
  release(): Promise<void>;
}

/**
 * Locks a store directory for this process, so that two processes never
 * append to the same journal. The lock is a file holding the owner's pid,
 * made with link(2), which fails when the file exists. A lock whose process
 * is gone (killed, crashed) is taken over; one held by a live process,
 * this one included, is refused.
 */
export async function lockDirectory(dir: string): Promise<DirectoryLock> {
  const path = lockPath(dir);
  const mine = `${path}.${process.pid}.tmp`;
  await writeFile(mine, `${process.pid}\n`);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await link(mine, path);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw lockError(dir, err);
        const owner = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
        if (Number.isSafeInteger(owner) && owner > 0 && isAlive(owner)) {
          throw new Error(`the store ${dir} is in use by process ${owner} (${path}); stop it first`);
        }
        await rm(path, { force: true });
      }
    }
  } finally {
    await rm(mine, { force: true });
  }
  return { release: () => rm(path, { force: true }) };
}

function lockError(dir: string, err: unknown): Error {
  return new Error(`cannot lock the store ${dir}: ${(err as Error).message}`);
}

/** Whether a process with this pid exists (EPERM: it does, under another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
