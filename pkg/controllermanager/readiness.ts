import type { ApiClient } from '../client/api-client';
import { ApiError } from '../client/errors';
import type { Manager } from '../controller/manager';

/** How long `/readyz` waits for the apiserver to answer before it counts it unreachable. */
export const APISERVER_PROBE_TIMEOUT_MS = 2_000;
/** Answers of `/readyz` are reused this long, so that a flood of probes is not a flood of requests to the apiserver. */
const CACHE_MS = 1_000;

/**
 * What keeps a controller-manager from being ready (empty: ready), as its
 * `/readyz` tells it (docs/operations.md):
 *
 * - the apiserver does not answer (any HTTP answer to `GET /version` counts:
 *   it is the connection that matters, not the apiserver's own readiness);
 * - with leader election, it does not yet know who leads (it has not read the
 *   Lease yet, or the Lease was just released);
 * - while it leads, an informer has not applied its first list.
 */
export class Readiness {
  private last: { at: number; problems: Promise<string[]> } | undefined;

  constructor(
    private readonly manager: Manager,
    private readonly client: ApiClient,
    private readonly leaderElected: boolean,
    private readonly probeTimeoutMs = APISERVER_PROBE_TIMEOUT_MS,
  ) {}

  /** The problems, one line each; concurrent and closely following calls share one probe. */
  problems(): Promise<string[]> {
    if (!this.last || Date.now() - this.last.at > CACHE_MS) {
      this.last = { at: Date.now(), problems: this.check() };
    }
    return this.last.problems;
  }

  private async check(): Promise<string[]> {
    const problems: string[] = [];
    const unreachable = await this.apiserverUnreachable();
    if (unreachable) problems.push(`apiserver unreachable: ${unreachable}`);
    if (this.leaderElected && !this.manager.leaderIdentity()) problems.push('leader not known yet');
    if (this.manager.isLeader()) {
      const unsynced = this.manager.informers.unsynced();
      if (unsynced.length) problems.push(`informers not synced: ${unsynced.join(', ')}`);
    }
    return problems;
  }

  /** Why the apiserver could not be reached, or undefined when it answered. */
  private async apiserverUnreachable(): Promise<string | undefined> {
    try {
      await this.client.request({ method: 'GET', path: '/version', signal: AbortSignal.timeout(this.probeTimeoutMs) });
      return undefined;
    } catch (err) {
      if (err instanceof ApiError) return undefined;
      // The abort of the probe's own timeout (a DOMException, not always an Error of this realm).
      const { name, message } = err as { name?: string; message?: string };
      if (name === 'TimeoutError') return `no answer within ${this.probeTimeoutMs} ms`;
      return message ?? String(err);
    }
  }
}
