import { ApiError, isNetworkError, type NetworkError } from '../client';

/** A mistake in how svcctl was called (a missing argument, a template it cannot read): exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A failure already reported on stderr (a failed document among several): exit 1 without another message. */
export class ReportedFailure extends Error {
  override readonly name = 'ReportedFailure';
}

/**
 * The stderr text of a server's error, kubectl's way:
 * `Error from server (Invalid): <message>` and one indented line per field cause.
 */
export function describeApiError(err: ApiError): string {
  const reason = err.reason ?? String(err.code);
  const causes = (err.status.details?.causes ?? [])
    .filter((c) => c.field && !err.message.includes(c.message))
    .map((c) => `\n  ${c.field}: ${c.message}`);
  return `Error from server (${reason}): ${err.message}${causes.join('')}`;
}

/** The exit code and stderr text of any error svcctl ends with. */
export function describeFailure(err: unknown): { code: number; text: string } {
  if (err instanceof ApiError) return { code: 1, text: describeApiError(err) + loginHint(err) };
  if (err instanceof UsageError) return { code: 2, text: `error: ${err.message}` };
  if (isNetworkError(err)) return { code: 1, text: `error: cannot reach the server: ${err.message}${tlsHint(err)}` };
  return { code: 1, text: `error: ${(err as Error).message ?? String(err)}` };
}

/** After a 401: how to get a token that works. */
function loginHint(err: ApiError): string {
  if (err.code !== 401) return '';
  return '\n  run `svcctl login --server URL --username NAME` to log in (again); `svcctl config view` shows the current context';
}

/** What to do about the TLS failures a newcomer meets: a private CA not given, or https:// to a plain HTTP port. */
function tlsHint(err: NetworkError): string {
  const text = `${err.message} ${(err.cause as Error | undefined)?.message ?? ''}`;
  if (/certificate|self[- ]signed/i.test(text))
    return "\n  the server's certificate is not one svcctl trusts: give its CA with --certificate-authority FILE (make run writes data/tls/ca.crt)";
  if (/wrong version number/i.test(text)) return '\n  the server answers plain HTTP there: use an http:// URL';
  // An HTTPS listener hangs up on a plain HTTP request without a word.
  if (/other side closed/i.test(text) && /^http:/i.test(err.url ?? ''))
    return '\n  the server hung up without answering: that port may serve HTTPS (make run serves it on 8443); use an https:// URL';
  return '';
}
