import pino from 'pino';

/** A log line as pino writes it (JSON), parsed. */
export type LogLine = Record<string, any> & { level: number; msg?: string };

/** A logger whose lines a test can read, and the lines written so far (parsed, and as written). */
export interface CapturedLog {
  log: pino.Logger;
  lines: LogLine[];
  raw: string[];
}

/** pino's numeric levels by name. */
export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

/** A pino logger (at `level`) writing its lines into an array instead of stdout. */
export function captureLog(level = 'debug'): CapturedLog {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const log = pino(
    { level },
    {
      write: (line: string) => {
        raw.push(line);
        lines.push(JSON.parse(line) as LogLine);
      },
    },
  );
  return { log, lines, raw };
}
