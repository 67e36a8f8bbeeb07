/** What a command reads and writes, so tests can run svcctl in-process. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The standard input (read by `-f -` and `login --password-stdin`). */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  env: NodeJS.ProcessEnv;
  /** Whether stderr is a terminal (progress bars and colour go there only then). */
  stderrIsTTY?: boolean;
  /** The user's home folder (for `~/.svc/config`). */
  home: string;
  /**
   * A signal aborted on Ctrl-C or SIGTERM; from the first call on, those end the
   * command quietly instead of the process (`get -w`). Absent: they are left alone.
   */
  interrupts?: () => AbortSignal;
}

/** The whole standard input as text. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a line from a terminal without echoing it (a password), after writing the prompt to stderr. */
export function readHidden(io: CliIo, prompt: string): Promise<string> {
  const stdin = io.stdin;
  io.stderr(prompt);
  return new Promise((resolve, reject) => {
    let typed = '';
    stdin.setRawMode?.(true);
    stdin.resume();
    const onData = (data: Buffer | string) => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return finish(() => resolve(typed));
        if (ch === '\u0003') return finish(() => reject(new Error('interrupted')));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    const finish = (settle: () => void) => {
      stdin.removeListener('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      io.stderr('\n');
      settle();
    };
    stdin.on('data', onData);
  });
}
