import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { forEachConcurrent } from '../../pkg/util/map-concurrent';
import { summarizeLatencies, type LatencySummary } from './latency-stats';

/** One request a load generator sends, e.g. `{ method: 'GET', path: '/objects/p-1' }`. */
export interface LoadRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** A JSON body, sent with `Content-Type: application/json`. */
  body?: string;
  /** Extra request headers, e.g. `{ Authorization: 'Bearer svc_…' }`. */
  headers?: Readonly<Record<string, string>>;
}

/** What to send, where, and how hard. */
export interface LoadOptions {
  /** The server's base URL, e.g. `http://127.0.0.1:8080`. */
  url: string;
  /** Requests in flight at any time (a closed loop: each sender waits for its answer). */
  concurrency: number;
  /** How many requests to complete in all. */
  requests: number;
  /** The `i`-th request (0-based, in the order they are sent). */
  requestAt(i: number): LoadRequest;
  /** The status every answer must have (anything else counts as an error). */
  expectStatus: number;
  /** Called now and then with the number of requests completed so far. */
  onProgress?(done: number): void;
}

/** How a load run went: throughput, latency percentiles and errors. */
export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  latency: LatencySummary;
  errors: number;
  /** The first error seen, e.g. `GET /x: 404 {"kind":"Status",…}`. */
  firstError?: string;
}

/** Bodies of error answers are cut to this length in `firstError`. */
const ERROR_BODY_CHARS = 300;
/**
 * Any timeout makes Node's agent close an idle keep-alive socket a second
 * before the server's announced `Keep-Alive: timeout`, instead of reusing it
 * as the server closes it (ECONNRESET). No request here comes near it.
 */
export const SOCKET_TIMEOUT_MS = 60_000;
/** onProgress is called every this many completed requests. */
const PROGRESS_EVERY = 100;

/**
 * A closed-loop HTTP load generator: `concurrency` senders over one
 * keep-alive agent, each sending its next request as soon as its previous
 * answer has been read, until `requests` answers have arrived. Latency is
 * measured from sending to the last byte of the answer.
 *
 * @example
 * const result = await runLoad({ url, concurrency: 32, requests: 10_000, expectStatus: 200,
 *   requestAt: (i) => ({ method: 'GET', path: `/objects/p-${i % 1000}` }) });
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency, timeout: SOCKET_TIMEOUT_MS });
  const latencies = new Float64Array(options.requests);
  let done = 0;
  let errors = 0;
  let firstError: string | undefined;

  const sendOne = async (i: number) => {
    const req = options.requestAt(i);
    const started = performance.now();
    const answer = await send(agent, target, req);
    latencies[i] = performance.now() - started;
    if (answer.status !== options.expectStatus) {
      errors++;
      firstError ??= `${req.method} ${req.path}: ${answer.status} ${answer.body().slice(0, ERROR_BODY_CHARS)}`;
    }
    done++;
    if (done % PROGRESS_EVERY === 0) options.onProgress?.(done);
  };

  const started = performance.now();
  try {
    // The project's worker pool: `concurrency` senders, each sending its next request once its answer is read.
    await forEachConcurrent(options.requests, options.concurrency, sendOne);
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - started) / 1000;
  options.onProgress?.(done);
  return {
    requests: done,
    seconds,
    perSecond: done / seconds,
    latency: summarizeLatencies(latencies),
    errors,
    firstError,
  };
}

/** One answer: its status and body (read in full, as a client would; decoded only when asked). */
interface Answer {
  status: number;
  body(): string;
}

/** Sends one request; a network error is an answer with status 0 and the error's message. */
function send(agent: Agent, target: URL, req: LoadRequest): Promise<Answer> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { Accept: 'application/json', ...req.headers };
    if (req.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = Buffer.byteLength(req.body);
    }
    const outgoing = httpRequest(
      {
        agent,
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.path,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: () => Buffer.concat(chunks).toString() }));
        res.on('error', (err) => resolve({ status: 0, body: () => err.message }));
      },
    );
    outgoing.on('error', (err) => resolve({ status: 0, body: () => err.message }));
    outgoing.end(req.body);
  });
}
