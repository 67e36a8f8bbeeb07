import type { Status, StatusReason } from '../api/errors';
import type { ObjectRead, ObjectReadAnswer } from '../api/object-read';
import { errorFromStatus, NetworkError } from './errors';
import { trustingFetch, type Fetch } from './trusting-fetch';
import { warningTexts } from './warnings';

/** How the client reaches the server: base URL, credentials, identity, timeout. */
export interface TransportConfig {
  /** e.g. `http://127.0.0.1:8080`; a trailing slash is ignored. */
  server: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Sent as `Authorization: Basic …` when there is no token (a login creating its first token). */
  basicAuth?: { username: string; password: string };
  /** Accept any certificate of an `https://` server (kubectl's `--insecure-skip-tls-verify`): for throwaway local servers only. */
  insecureSkipTlsVerify?: boolean;
  /** PEM certificates to trust for an `https://` server instead of the system's (kubeconfig's `certificate-authority`). */
  ca?: string | Buffer;
  /** Sent as `User-Agent`, e.g. `svc-controller-manager/0.1.0`. */
  userAgent?: string;
  /** How requests are sent instead of the global `fetch` (a plugin's client answered in process). */
  fetch?: Fetch;
  /** Sent as `Impersonate-User`: act as this user (the `plugins` controller acting as `system:plugin:<name>`). */
  impersonateUser?: string;
  /** Each non-watch request fails with a NetworkError after this long; default 30 s. */
  requestTimeoutMs?: number;
  /** Called with the text of each `Warning` header the server answers with, success or failure (kubectl prints them). */
  onWarning?: (text: string) => void;
  /**
   * Answers plain reads (`get`, `list`) as values, in the apiserver's own process (a plugin's client); a read it
   * leaves `unserved`, and every other request, goes through `fetch`.
   */
  reads?: (read: ObjectRead) => Promise<ObjectReadAnswer>;
}

/** One request: method, path with query, and an optional JSON (or preformatted) body. */
export interface HttpRequest {
  method: string;
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  contentType?: string;
  signal?: AbortSignal;
  /** A watch: no request timeout, the body is read as a stream. */
  stream?: boolean;
  /** The `Accept` header instead of `application/json`, e.g. a Table's. */
  accept?: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Sends requests and turns their failures into the client's errors: a
 * non-2xx answer into an `ApiError` with the server's Status (or one made up
 * from the code when the body is not a Status), no answer into a
 * `NetworkError`. An abort by the caller's signal rethrows the signal's reason.
 */
export class Transport {
  private readonly base: string;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly fetch: Fetch;
  private readonly onWarning?: (text: string) => void;
  private readonly reads?: TransportConfig['reads'];

  constructor(config: TransportConfig) {
    this.base = config.server.replace(/\/+$/, '');
    this.headers = { Accept: 'application/json' };
    if (config.token) this.headers.Authorization = `Bearer ${config.token}`;
    else if (config.basicAuth) {
      const { username, password } = config.basicAuth;
      this.headers.Authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    }
    if (config.userAgent) this.headers['User-Agent'] = config.userAgent;
    if (config.impersonateUser) this.headers['Impersonate-User'] = config.impersonateUser;
    this.timeoutMs = config.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.onWarning = config.onWarning;
    this.reads = config.reads;
    // The CA and the skip are about certificates: a plain http:// server is reached as without them.
    const tls = /^https:/i.test(this.base) && (config.ca || config.insecureSkipTlsVerify);
    this.fetch =
      config.fetch ??
      (tls
        ? trustingFetch(config.ca, { rejectUnauthorized: !config.insecureSkipTlsVerify })
        : (url, init) => fetch(url, init));
  }

  /** Sends the request and answers the parsed JSON body of a 2xx response. */
  async json<T>(req: HttpRequest): Promise<T> {
    const res = await this.send(req);
    const text = await this.readText(res, req);
    try {
      return (text ? JSON.parse(text) : undefined) as T;
    } catch (cause) {
      throw new NetworkError(`${req.method} ${req.path}: the answer is not JSON`, { cause });
    }
  }

  /**
   * A plain read: answered as values by `reads` when there is one and it serves it, else sent as `req` (`json`).
   * Failures are the same either way: a refusal an `ApiError` with its Status, no answer in time a `NetworkError`,
   * an abort by the caller's signal its reason.
   */
  async read<T>(read: ObjectRead, req: HttpRequest): Promise<T> {
    if (!this.reads) return this.json<T>(req);
    let answer: ObjectReadAnswer;
    try {
      req.signal?.throwIfAborted();
      answer = await this.inTime(this.reads(read), req);
    } catch (err) {
      throw err instanceof NetworkError ? err : this.failure(err, req);
    }
    if ('unserved' in answer) return this.json<T>(req);
    if ('status' in answer) throw errorFromStatus(answer.status);
    return answer.object as T;
  }

  /**
   * `answering`, or a NetworkError once the request timeout passes, or the reason of `req`'s signal once it aborts:
   * an in-process answer cannot be called back, only no longer waited for.
   */
  private inTime<A>(answering: Promise<A>, req: HttpRequest): Promise<A> {
    const { signal } = req;
    return new Promise<A>((resolve, reject) => {
      const settle = (finish: () => void) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        finish();
      };
      const onAbort = () => settle(() => reject(signal?.reason));
      const timer = setTimeout(() => {
        const url = this.base + req.path;
        const late = new NetworkError(`${req.method} ${req.path}: no answer within ${this.timeoutMs} ms`, { url });
        settle(() => reject(late));
      }, this.timeoutMs);
      // As fetch's timeout: it alone keeps no process (or worker) alive.
      timer.unref?.();
      signal?.addEventListener('abort', onAbort, { once: true });
      answering.then(
        (answer) => settle(() => resolve(answer)),
        (err: unknown) => settle(() => reject(err)),
      );
    });
  }

  /** Sends the request and answers the response of a 2xx status, body unread (for watches). */
  async send(req: HttpRequest): Promise<Response> {
    const url = this.base + req.path + (req.query && [...req.query.keys()].length ? `?${req.query}` : '');
    const timeout = req.stream ? undefined : AbortSignal.timeout(this.timeoutMs);
    const signals = [req.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    const init: RequestInit = { method: req.method, headers: this.headersFor(req), signal };
    if (req.body !== undefined) init.body = typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
    let res: Response;
    try {
      res = await this.fetch(url, init);
    } catch (err) {
      throw this.failure(err, req, timeout);
    }
    this.reportWarnings(res);
    if (res.ok) return res;
    throw errorFromStatus(statusOf(res.status, await this.readText(res, req, timeout)));
  }

  /** Hands each `Warning` of the answer to `onWarning`. */
  private reportWarnings(res: Response): void {
    if (this.onWarning) for (const text of warningTexts(res.headers.get('warning'))) this.onWarning(text);
  }

  /** The client's headers, with the request's Accept and, for a body, its Content-Type. */
  private headersFor(req: HttpRequest): Record<string, string> {
    const headers: Record<string, string> = req.accept ? { ...this.headers, Accept: req.accept } : { ...this.headers };
    if (req.body !== undefined) headers['Content-Type'] = req.contentType ?? 'application/json';
    return headers;
  }

  private async readText(res: Response, req: HttpRequest, timeout?: AbortSignal): Promise<string> {
    try {
      return await res.text();
    } catch (err) {
      throw this.failure(err, req, timeout);
    }
  }

  private failure(err: unknown, req: HttpRequest, timeout?: AbortSignal): unknown {
    if (req.signal?.aborted) return req.signal.reason;
    const what = `${req.method} ${req.path}`;
    const url = this.base + req.path;
    if (timeout?.aborted)
      return new NetworkError(`${what}: no answer within ${this.timeoutMs} ms`, { cause: err, url });
    const cause = (err as { cause?: { message?: string } }).cause;
    return new NetworkError(`${what}: ${cause?.message ?? (err as Error).message}`, { cause: err, url });
  }
}

const REASONS: Record<number, StatusReason> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Expired',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** The answer's Status, or one made from the code when the body is something else (a proxy's HTML page). */
export function statusOf(code: number, text: string): Status {
  try {
    const body = JSON.parse(text) as Partial<Status>;
    if (body && body.kind === 'Status') return { ...body, code: body.code ?? code } as Status;
  } catch {
    // not JSON: described below
  }
  const message = text.trim() ? text.trim().slice(0, 200) : `the server answered ${code}`;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: REASONS[code], code };
}
