import type { ApiObject } from '../../pkg/api/object';
import {
  ApiClient,
  ApiError,
  isAlreadyExists,
  isConflict,
  isExpired,
  isNetworkError,
  isNotFound,
  type ResourceRef,
} from '../../pkg/client';
import { Backoff } from '../../pkg/util/backoff';
import { counterOf, type AcknowledgedWrite, type WatchSegment } from './failover-workload';

/**
 * The failover drill's workload through apiservers (HTTP, as any client):
 * writers that increment counters by read-modify-write, watchers that record
 * every event and resume after a broken watch, and a gc workload whose
 * objects the controller-manager's gc must remove.
 */

/** The counters' Model: one integer in `spec.counter`. */
export const COUNTERS: ResourceRef = { group: 'drill.example.org', version: 'v1', plural: 'counters', kind: 'Counter' };
/** The gc workload's Model: objects created with a finalizer, marked, then released. */
export const PARCELS: ResourceRef = { group: 'drill.example.org', version: 'v1', plural: 'parcels', kind: 'Parcel' };
/** The finalizer the gc workload puts on its objects and takes off once they are marked. */
export const HOLD_FINALIZER = 'drill.example.org/hold';

/** The Model object that serves `res`, with an integer `spec.counter`. */
export function drillModel(res: ResourceRef): ApiObject {
  return {
    apiVersion: 'apiextensions.svc.run/v1alpha1',
    kind: 'Model',
    metadata: { name: `${res.plural}.${res.group}` },
    spec: {
      group: res.group,
      version: res.version,
      names: { kind: res.kind, plural: res.plural },
      schema: {
        type: 'object',
        properties: { spec: { type: 'object', properties: { counter: { type: 'integer' } } } },
      },
    },
  };
}

const objectOf = (res: ResourceRef, name: string, extra: Partial<ApiObject['metadata']> = {}): ApiObject => ({
  apiVersion: `${res.group}/${res.version}`,
  kind: res.kind!,
  metadata: { name, ...extra },
  spec: { counter: 0 },
});

/**
 * A request that failed without a definite answer, or was not received in full (408) on a busy machine: retried.
 * A 500 is retried too, but counted apart (the contract rules it out during a failover: a wrong answer).
 */
function retryable(err: unknown): boolean {
  return isNetworkError(err) || (err instanceof ApiError && [408, 500, 503, 504].includes(err.code));
}

/** Keeps `run` for `stop()` to await (and fail with), without an unhandled rejection meanwhile. */
function kept(runs: Promise<void>[], run: Promise<void>): void {
  run.catch(() => undefined);
  runs.push(run);
}

/** Requests that failed while the store was being failed over, and how long each loop went without a success. */
export class FailureLog {
  readonly failures: { at: number; message: string }[] = [];
  readonly outages: number[] = [];
  /** 500 answers: never expected. */
  internalErrors = 0;

  protected noteFailure(err: unknown): void {
    if (err instanceof ApiError && err.code === 500) this.internalErrors++;
    this.failures.push({ at: Date.now(), message: (err as Error).message });
  }
}

/** One writer per counter, each on its apiserver (round robin), until `stop()`. */
export class HttpCounterWriters extends FailureLog {
  readonly acknowledged: AcknowledgedWrite[] = [];
  private stopped = false;
  private readonly done: Promise<void>[] = [];

  constructor(
    private readonly clients: readonly ApiClient[],
    private readonly names: readonly string[],
  ) {
    super();
  }

  /** Creates the counters (before the watchers start, so that they watch from a revision the counters have). */
  async create(): Promise<void> {
    for (const [i, name] of this.names.entries()) {
      await this.clients[i % this.clients.length].create(COUNTERS, objectOf(COUNTERS, name));
    }
  }

  /** Starts the writers of the counters `create()` made. */
  start(): void {
    this.names.forEach((name, i) => kept(this.done, this.loop(this.clients[i % this.clients.length], name)));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.done);
  }

  private async loop(client: ApiClient, name: string): Promise<void> {
    const backoff = new Backoff(20, 200);
    let failingSince: number | undefined;
    while (!this.stopped) {
      try {
        const current = await client.get(COUNTERS, name);
        const written = await client.update(COUNTERS, { ...current, spec: { counter: counterOf(current) + 1 } });
        const at = Date.now();
        this.acknowledged.push({
          name,
          value: counterOf(written),
          revision: Number(written.metadata.resourceVersion),
          at,
        });
        if (failingSince !== undefined) this.outages.push(at - failingSince);
        failingSince = undefined;
        backoff.reset();
      } catch (err) {
        // A Conflict follows a write whose answer was lost (503) but which happened: read again.
        if (!retryable(err) && !isConflict(err)) throw err;
        failingSince ??= Date.now();
        this.noteFailure(err);
        await backoff.wait();
      }
    }
  }
}

/**
 * A watcher of the counters on one apiserver, from `fromRevision`: after a
 * broken watch or a 503 it watches on from its last event (the same segment:
 * the next event must follow it); after 410 Expired it lists again and starts
 * a new segment.
 */
export class HttpRecordingWatcher {
  readonly segments: WatchSegment[] = [];
  /** Watches opened again after a broken watch or a failed start. */
  resumes = 0;
  position: number;
  private stopped = false;
  private readonly stopper = new AbortController();
  private readonly done: Promise<void>;

  constructor(
    private readonly client: ApiClient,
    fromRevision: number,
  ) {
    // Revision 0 would ask for the objects as they are first (Kubernetes' meaning of resourceVersion=0).
    if (!(fromRevision > 0)) throw new Error(`a recording watcher starts after a revision, not at ${fromRevision}`);
    this.position = fromRevision;
    this.done = this.loop();
    this.done.catch(() => undefined); // stop() rethrows it
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopper.abort();
    await this.done;
  }

  private async loop(): Promise<void> {
    const backoff = new Backoff(20, 500);
    let segment: WatchSegment = { events: [], end: 'stopped' };
    this.segments.push(segment);
    while (!this.stopped) {
      try {
        const stream = await this.client.watch(COUNTERS, {
          resourceVersion: String(this.position),
          signal: this.stopper.signal,
        });
        for await (const event of stream) {
          if (event.type === 'BOOKMARK') continue;
          const revision = Number(event.object.metadata.resourceVersion);
          segment.events.push({ name: event.object.metadata.name ?? '', value: counterOf(event.object), revision });
          this.position = revision;
          backoff.reset();
        }
      } catch (err) {
        if (this.stopped) return;
        if (isExpired(err)) {
          segment.end = 'expired';
          this.position = await this.listRevision(backoff);
          segment = { events: [], end: 'stopped' };
          this.segments.push(segment);
          continue;
        }
        if (!retryable(err)) throw err;
      }
      if (this.stopped) return;
      this.resumes++;
      await backoff.wait();
    }
  }

  private async listRevision(backoff: Backoff): Promise<number> {
    for (;;) {
      try {
        return Number((await this.client.list(COUNTERS, { limit: 1, signal: this.stopper.signal })).resourceVersion);
      } catch (err) {
        if (this.stopped || !retryable(err)) throw err;
        await backoff.wait();
      }
    }
  }
}

/**
 * Objects for the gc: each is created with a finalizer, marked for deletion,
 * then released (its finalizer taken off), in a loop on each apiserver; the
 * controller-manager's gc removes it. Every step is retried until it has an
 * answer.
 */
export class GcWorkload extends FailureLog {
  /** When each object was released, by name. */
  readonly released = new Map<string, number>();
  private stopped = false;
  private readonly done: Promise<void>[] = [];

  constructor(private readonly clients: readonly ApiClient[]) {
    super();
  }

  start(): void {
    this.clients.forEach((client, i) => kept(this.done, this.loop(client, `p${i}`)));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.done);
  }

  private async loop(client: ApiClient, prefix: string): Promise<void> {
    for (let i = 0; !this.stopped; i++) {
      const name = `${prefix}-${i}`;
      await this.step(async () => {
        try {
          await client.create(PARCELS, objectOf(PARCELS, name, { finalizers: [HOLD_FINALIZER] }));
        } catch (err) {
          if (!isAlreadyExists(err)) throw err;
        }
      });
      await this.step(() => client.delete(PARCELS, name));
      await this.step(async () => {
        try {
          await client.patch(PARCELS, name, { metadata: { finalizers: null } });
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      });
      this.released.set(name, Date.now());
    }
  }

  /** Runs `action` until it has an answer, noting the failures. */
  private async step(action: () => Promise<unknown>): Promise<void> {
    const backoff = new Backoff(20, 200);
    let failingSince: number | undefined;
    for (;;) {
      try {
        await action();
        if (failingSince !== undefined) this.outages.push(Date.now() - failingSince);
        return;
      } catch (err) {
        if (!retryable(err)) throw err;
        failingSince ??= Date.now();
        this.noteFailure(err);
        await backoff.wait();
      }
    }
  }
}
