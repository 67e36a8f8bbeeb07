import pino from 'pino';
import { formatLogLine } from './log-text';

/** How log lines are written: `json` (one object a line) or `text` (for a person at a terminal). */
export type LogFormat = 'json' | 'text';

/** SVC_LOG_FORMAT when set (json or text), else text when stdout is a terminal and JSON otherwise. */
export function logFormat(env: NodeJS.ProcessEnv = process.env, isTty = process.stdout.isTTY === true): LogFormat {
  const chosen = env.SVC_LOG_FORMAT;
  if (chosen === 'json' || chosen === 'text') return chosen;
  return isTty ? 'text' : 'json';
}

/** A pino destination that writes each line as formatLogLine renders it. */
export function textDestination(out: { write(chunk: string): unknown }): pino.DestinationStream {
  return { write: (line: string) => void out.write(formatLogLine(line)) };
}

/**
 * A logger at `level` with ISO-8601 times, writing JSON lines or text lines
 * (see logFormat) to `out`.
 */
export function createLogger(
  level: string,
  format: LogFormat,
  out: NodeJS.WritableStream = process.stdout,
): pino.Logger {
  const options: pino.LoggerOptions = { level, timestamp: pino.stdTimeFunctions.isoTime };
  if (format === 'text') return pino(options, textDestination(out));
  return out === process.stdout ? pino(options) : pino(options, out);
}

/**
 * The process's structured logger; components take `logger.child({component})`, and a part of a component
 * `child({part})` (pino would write a second `component` key, not replace the first).
 */
export const logger = createLogger(process.env.SVC_LOG_LEVEL ?? 'info', logFormat());
export type Logger = pino.Logger;
