/** pino's level numbers and the names a text line shows. */
const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** Fields every pino line has that a text line shows in its own place, or not at all. */
const PLACED = new Set(['time', 'level', 'msg', 'pid', 'hostname', 'err']);

/** A value as `key=value` shows it: bare when it is a word, JSON (quoted) otherwise. */
function showValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

/**
 * One pino JSON line as a line a person reads in a terminal:
 * `2026-01-02T03:04:05.678Z INFO  apiserver listening listen=127.0.0.1:8080`,
 * then an error's stack, indented, when the line carries one (`err`).
 * A line that is not JSON is returned as it came.
 */
export function formatLogLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const level = LEVEL_NAMES[entry.level as number] ?? String(entry.level);
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString() : String(entry.time ?? '');
  const fields = Object.entries(entry)
    .filter(([key]) => !PLACED.has(key))
    .map(([key, value]) => `${key}=${showValue(value)}`);
  const line = [time, level.padEnd(5), entry.msg ?? '', ...fields].join(' ').trimEnd();
  return `${line}${showError(entry.err as LoggedError)}\n`;
}

type LoggedError = { message?: string; stack?: string } | string | undefined;

/** A line's `err`: a string as a field, an error as its stack (or message) on indented lines below. */
function showError(err: LoggedError): string {
  if (typeof err === 'string') return ` err=${showValue(err)}`;
  if (!err) return '';
  return `\n  ${(err.stack ?? err.message ?? JSON.stringify(err)).split('\n').join('\n  ')}`;
}
