import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { SOCKET_TIMEOUT_MS } from '../support/http-load';
import { LatencyRecorder, summarizeLatencies, type LatencySummary } from '../support/latency-stats';
import { personBody } from './persons';

/** What a paced writer did. */
export interface WriterResult {
  /** Creates sent. */
  sent: number;
  /** Creates answered 201. */
  created: number;
  /** The first failure, e.g. `409 {"kind":"Status",…}`. */
  firstError?: string;
  /** Creates per second actually sent, over the whole run. */
  achievedRate: number;
  /** Send → answer of the creates (the write's share of the delivery latency). */
  createLatency: LatencySummary;
}

/** Settings of one paced write run. */
export interface WriterSettings {
  /** The server's base URL. */
  url: string;
  /** Where creates are POSTed, e.g. `/apis/example.com/v1alpha1/persons`. */
  createPath: string;
  /** Creates per second. */
  rate: number;
  seconds: number;
  /** Prefix of the created Persons' names, unique to the run. */
  namePrefix: string;
  /** Called about every 100 ms with the creates sent so far. */
  onProgress?(sent: number): void;
  /** Request headers besides the create's own, e.g. `Authorization`. */
  headers?: Record<string, string>;
}

/** The writer never sends more than this many creates at once (it falls behind instead, which the result shows). */
const MAX_IN_FLIGHT = 256;
const PROGRESS_EVERY_MS = 100;

/**
 * Creates Persons at a fixed rate (an open loop: it does not wait for one
 * answer before the next is due), each stamped with its send time, for
 * `seconds`; resolves when every create has been answered.
 */
export async function writeAtRate(settings: WriterSettings): Promise<WriterResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT, timeout: SOCKET_TIMEOUT_MS });
  const target = new URL(settings.url);
  const total = Math.round(settings.rate * settings.seconds);
  const result: WriterResult = { sent: 0, created: 0, achievedRate: 0, createLatency: summarizeLatencies([]) };
  const createLatencies = new LatencyRecorder();
  const answers: Promise<void>[] = [];
  let inFlight = 0;
  const started = performance.now();
  let lastProgress = started;

  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - started) / 1000) * settings.rate) + 1);
      while (result.sent < due && inFlight < MAX_IN_FLIGHT) {
        const seq = result.sent++;
        inFlight++;
        const sentAt = performance.now();
        answers.push(
          create(agent, target, settings, `${settings.namePrefix}-${seq}`, seq).then((outcome) => {
            createLatencies.record(performance.now() - sentAt);
            inFlight--;
            if (outcome === 'created') result.created++;
            else result.firstError ??= outcome;
          }),
        );
      }
      if (now - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = now;
        settings.onProgress?.(result.sent);
      }
      if (result.sent >= total) {
        clearInterval(timer);
        resolve();
      }
    };
    // Node's timers fire at best every millisecond: enough for 1,000 writes/s, sent as they fall due.
    const timer = setInterval(tick, Math.max(1, Math.floor(1000 / settings.rate)));
  });
  result.achievedRate = result.sent / ((performance.now() - started) / 1000);
  await Promise.all(answers);
  agent.destroy();
  result.createLatency = summarizeLatencies(createLatencies.values());
  settings.onProgress?.(result.sent);
  return result;
}

/** Sends one create stamped with the send time; resolves `created` or what went wrong. */
function create(agent: Agent, target: URL, settings: WriterSettings, name: string, seq: number): Promise<string> {
  const body = personBody(name, seq, performance.now());
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        agent,
        host: target.hostname,
        port: target.port,
        method: 'POST',
        path: settings.createPath,
        headers: {
          ...settings.headers,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve(
            res.statusCode === 201 ? 'created' : `${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 300)}`,
          ),
        );
      },
    );
    req.on('error', (err) => resolve(err.message));
    req.end(body);
  });
}
