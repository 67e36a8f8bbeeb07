import pino from 'pino';
import { Registry } from 'prom-client';
import { ApiError } from '../client/errors';
import type { ResourceRef } from '../client/resource';
import { Controller } from './controller';
import { Informer } from './informer';
import { ControllerMetrics } from './metrics';
import { ExponentialRateLimiter } from './rate-limiter';
import { reconcilerFn, TerminalError, type ReconcileContext, type Request, type Result } from './reconciler';
import { FakeListerWatcher, thing } from './testing/fake-source';
import { waitFor } from '../../test/support/wait-for';

const THINGS: ResourceRef = { group: 'test.example', version: 'v1', plural: 'things' };
const log = pino({ level: 'silent' });

type ReconcileFn = (request: Request, ctx: ReconcileContext) => Promise<Result | void>;

/** A controller over an in-memory source holding `names`, reconciling with `fn`, one worker unless told. */
async function harness(
  fn: ReconcileFn,
  { names = ['a'], workers = 1, registry = undefined as Registry | undefined } = {},
) {
  const source = new FakeListerWatcher(names.map((n) => thing(n)));
  const informer = new Informer(source, { name: 'things', log });
  const calls: string[] = [];
  const ctrl = new Controller(
    {
      name: 'things',
      workers,
      sources: [{ resource: THINGS }],
      reconciler: reconcilerFn(async (request, ctx) => {
        calls.push(request.name);
        return fn(request, ctx);
      }),
      rateLimiter: new ExponentialRateLimiter(100, 10_000),
    },
    {
      informers: { informerFor: () => informer as never },
      log,
      metrics: registry ? new ControllerMetrics(registry) : undefined,
    },
  );
  informer.start();
  await ctrl.start();
  const stop = async () => {
    await ctrl.stop();
    await informer.stop();
  };
  return { source, informer, ctrl, calls, stop };
}

const notFound = () =>
  new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 404, reason: 'NotFound' });

describe('Controller: what a reconcile outcome does to the key', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('retries a reconcile that throws, with growing backoff, and forgets the key once it succeeds', async () => {
    let failures = 2;
    const h = await harness(async () => {
      if (failures-- > 0) throw new Error('transient');
    });
    await jest.advanceTimersByTimeAsync(0);
    expect(h.calls).toEqual(['a']);
    await jest.advanceTimersByTimeAsync(99);
    expect(h.calls).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(h.calls).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(199);
    expect(h.calls).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(h.calls).toHaveLength(3);
    expect(h.ctrl.queue.retries('a')).toBe(0);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(h.calls).toHaveLength(3);
    await h.stop();
  });

  it('does not retry a TerminalError', async () => {
    const h = await harness(async () => {
      throw new TerminalError('spec is invalid');
    });
    await jest.advanceTimersByTimeAsync(60_000);
    expect(h.calls).toEqual(['a']);
    expect(h.ctrl.queue.retries('a')).toBe(0);
    await h.stop();
  });

  it('reconciles again after requeueAfterMs, and only then', async () => {
    let first = true;
    const h = await harness(async () => {
      if (!first) return;
      first = false;
      return { requeueAfterMs: 500 };
    });
    await jest.advanceTimersByTimeAsync(499);
    expect(h.calls).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(h.calls).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(h.calls).toHaveLength(2);
    await h.stop();
  });

  it('treats NotFound as done: no retry', async () => {
    const h = await harness(async () => {
      throw notFound();
    });
    await jest.advanceTimersByTimeAsync(60_000);
    expect(h.calls).toEqual(['a']);
    await h.stop();
  });

  it('counts reconciles by result and errors in the metrics', async () => {
    const registry = new Registry();
    let attempt = 0;
    const h = await harness(
      async () => {
        attempt++;
        if (attempt === 1) throw new Error('transient');
        if (attempt === 2) throw new TerminalError('bad');
      },
      { registry },
    );
    await jest.advanceTimersByTimeAsync(1000);
    const text = await registry.metrics();
    expect(text).toContain('svc_controller_reconcile_total{controller="things",result="error"} 1');
    expect(text).toContain('svc_controller_reconcile_total{controller="things",result="terminal_error"} 1');
    expect(text).toContain('svc_controller_reconcile_errors_total{controller="things"} 2');
    expect(text).toContain('svc_controller_workqueue_depth{controller="things"} 0');
    await h.stop();
  });
});

describe('Controller: workers and keys', () => {
  it('enqueues every object at start and every change of one later', async () => {
    const h = await harness(async () => undefined, { names: ['a', 'b'] });
    await waitFor(() => h.calls.length === 2 && h.source.watching);
    expect([...h.calls].sort()).toEqual(['a', 'b']);
    h.source.emit({ type: 'MODIFIED', object: thing('b', '2') });
    await waitFor(() => h.calls.length === 3);
    expect(h.calls[2]).toBe('b');
    await h.stop();
  });

  it('never reconciles one key in two workers at once, and reconciles a key changed meanwhile again afterwards', async () => {
    let running = 0;
    let most = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const h = await harness(
      async () => {
        running++;
        most = Math.max(most, running);
        await gate;
        running--;
      },
      { workers: 4 },
    );
    await waitFor(() => h.calls.length === 1 && h.source.watching);
    h.source.emit({ type: 'MODIFIED', object: thing('a', '2') });
    h.source.emit({ type: 'MODIFIED', object: thing('a', '3') });
    await waitFor(() => h.informer.cache.get('a')?.metadata.resourceVersion === '3');
    expect(h.calls).toHaveLength(1);
    release();
    await waitFor(() => h.calls.length === 2);
    await h.stop();
    expect(most).toBe(1);
    expect(h.calls).toEqual(['a', 'a']);
  });

  it('on stop aborts ctx.signal, starts nothing new, and waits for the running reconcile', async () => {
    let finished = false;
    let sawAbort = false;
    const h = await harness(
      async (_req, ctx) => {
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
        sawAbort = ctx.signal.aborted;
        finished = true;
      },
      { names: ['a', 'b'] },
    );
    await waitFor(() => h.calls.length === 1);
    await h.stop();
    expect(finished).toBe(true);
    expect(sawAbort).toBe(true);
    expect(h.calls).toHaveLength(1);
  });
});
