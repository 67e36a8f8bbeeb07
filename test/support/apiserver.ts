import pino from 'pino';
import { startApiServer, type ApiServerConfig, type RunningApiServer } from '../../pkg/server/app';
import { trustingFetch } from '../../pkg/client/trusting-fetch';
import { sharedRedisUrl, uniqueKeyPrefix } from './redis';

/** The `admin` password of every test apiserver. */
export const TEST_ADMIN_PASSWORD = 'admin-password-for-tests';

/**
 * Starts a real apiserver in this process on a free port, against the test
 * run's Redis under a key prefix of its own (or `store` when given); it logs
 * to `log` when given (see log-capture.ts), else nowhere.
 */
export async function startTestApiServer(
  config: Partial<ApiServerConfig> = {},
  log?: pino.Logger,
): Promise<RunningApiServer> {
  const store = config.store ?? `${sharedRedisUrl()}?keyPrefix=${uniqueKeyPrefix('api')}`;
  return startApiServer(
    {
      listen: '127.0.0.1:0',
      authorizationMode: 'AlwaysAllow',
      adminPassword: TEST_ADMIN_PASSWORD,
      maxBodyBytes: 3 * 1024 * 1024,
      watchTimeoutSeconds: 1800,
      watchRetention: 100000,
      // The content module's worker costs every test apiserver a thread: only the tests that need it load it.
      builtinPlugins: false,
      ...config,
      store,
    },
    log ?? pino({ level: process.env.SVC_TEST_LOG_LEVEL ?? 'silent' }),
  );
}

/** A response as tests read it: status, headers, and the body parsed when it is JSON. */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * A small HTTP client bound to one server. Bodies that are not strings are sent as JSON.
 * `defaults` go with every request (e.g. an Authorization header); a call's own headers win.
 * `ca` (PEM): the certificates trusted for an `https://` server, instead of the system's.
 */
export function client(baseUrl: string, defaults: Record<string, string> = {}, ca?: string | Buffer) {
  const fetch = ca ? trustingFetch(ca) : globalThis.fetch;
  return async function call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const init: RequestInit = { method, headers: { ...defaults, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(baseUrl + path, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: tests read `text`
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };
}

export type ApiClient = ReturnType<typeof client>;
