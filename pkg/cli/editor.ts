import { spawn } from 'node:child_process';
import type { CliIo } from './io';

/** The editor command: `$SVC_EDITOR`, else `$EDITOR`, else `vi` (kubectl's order, with svc's own variable first). */
export const editorCommand = (env: NodeJS.ProcessEnv): string => env.SVC_EDITOR || env.EDITOR || 'vi';

/**
 * Opens `file` in the user's editor on this terminal and resolves once it is closed. The command runs
 * through the shell, so it may carry arguments (`code --wait`). Rejects when the editor cannot be
 * started or exits non-zero.
 */
export function runEditor(io: Pick<CliIo, 'env'>, file: string): Promise<void> {
  const command = editorCommand(io.env);
  return new Promise((resolve, reject) => {
    const child = spawn(`${command} ${shellQuote(file)}`, { shell: true, stdio: 'inherit', env: io.env });
    child.once('error', (err) => reject(new Error(`cannot start the editor "${command}": ${err.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`the editor "${command}" exited with ${signal ?? `code ${code}`}; no changes made`));
    });
  });
}

/** One shell word: single-quoted, with any single quote closed, escaped and reopened. */
const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
