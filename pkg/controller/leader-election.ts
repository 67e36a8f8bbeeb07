import type { ApiClient } from '../client/api-client';
import { isNotFound } from '../client/errors';
import type { Logger } from '../util/log';
import { sleep } from '../util/backoff';
import { LEASES, type Lease, type LeaseSpec } from './lease-model';

/**
 * Leader election settings (Kubernetes' defaults: 15 s, 10 s, 2 s). Needs
 * leaseDuration > renewDeadline > retryPeriod.
 */
export interface LeaderElectionConfig {
  client: ApiClient;
  /** The Lease object's name, e.g. `svc-controller-manager`. */
  leaseName: string;
  /** This candidate's identity, unique among candidates, e.g. `host-1_4b2f…`. */
  identity: string;
  /** How long a standby waits, after it last saw the lease change, before it takes it over. Default 15 s. */
  leaseDurationMs?: number;
  /** The leader gives up (stops its controllers) when it could not renew for this long. Default 10 s. */
  renewDeadlineMs?: number;
  /** How often candidates try to acquire and the leader renews. Default 2 s. */
  retryPeriodMs?: number;
  /** On a graceful stop, give the lease up so that a standby takes over at once. Default true. */
  releaseOnStop?: boolean;
  log: Logger;
}

/** What the elector tells its owner. */
export interface LeaderCallbacks {
  /** This candidate leads now; `signal` aborts when it stops leading. */
  onStartedLeading(signal: AbortSignal): void;
  /** This candidate stopped leading (lost the lease, or stopped): stop everything the lease guards, at once. */
  onStoppedLeading(): void;
  /** The observed holder changed (to `''` when released). */
  onNewLeader?(identity: string): void;
}

/** How a leadership ended: lost (could not renew, or someone else holds the lease) or stopped by the caller. */
export type LeadershipEnd = 'lost' | 'stopped';

type Attempt = 'acquired' | 'renewed' | 'held' | 'failed';

/**
 * Leader election through a Lease (client-go's leaderelection): candidates
 * poll the lease every retry period; one whose lease expired (unchanged for
 * its lease duration, measured on the candidate's own clock) or was released
 * is taken with an update conditional on the `resourceVersion` read, so two
 * candidates never both win. The leader renews every retry period; if it
 * cannot renew for the renew deadline, or sees another holder, it stops
 * leading at once. Since the renew deadline is shorter than the lease
 * duration, it has stopped before a standby can take over.
 * @example
 * const elector = new LeaderElector({client, leaseName: 'svc-controller-manager', identity, log}, {
 *   onStartedLeading: (leading) => startWork(leading),
 *   onStoppedLeading: () => stopWorkAtOnce(),
 * });
 * await elector.run(signal); // 'lost' or 'stopped'
 * (The Manager does this for its controllers: `new Manager({…, leaderElection})`.)
 */
export class LeaderElector {
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly log: Logger;
  private leading = false;
  private observedVersion: string | undefined;
  private observedAt = 0;
  private observedHolder = '';

  constructor(
    private readonly config: LeaderElectionConfig,
    private readonly callbacks: LeaderCallbacks,
  ) {
    this.leaseDurationMs = config.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = config.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = config.retryPeriodMs ?? 2_000;
    if (!(
      this.leaseDurationMs > this.renewDeadlineMs &&
      this.renewDeadlineMs > this.retryPeriodMs &&
      this.retryPeriodMs > 0
    )) {
      throw new Error(
        `leader election needs leaseDuration > renewDeadline > retryPeriod > 0, got ${this.leaseDurationMs}, ${this.renewDeadlineMs}, ${this.retryPeriodMs} ms`,
      );
    }
    if (!config.identity) throw new Error('leader election needs an identity');
    this.log = config.log.child({ lease: config.leaseName, identity: config.identity });
  }

  /** Whether this candidate leads now. */
  isLeader(): boolean {
    return this.leading;
  }

  /** The holder this candidate last saw ('' when none). */
  leader(): string {
    return this.observedHolder;
  }

  /**
   * Campaigns until this candidate leads, then renews until the lease is
   * lost or `signal` aborts. Resolves with how leadership ended ('stopped'
   * also when it never led).
   */
  async run(signal: AbortSignal): Promise<LeadershipEnd> {
    if (!(await this.acquire(signal))) return 'stopped';
    const leadership = new AbortController();
    this.leading = true;
    this.log.info('started leading');
    this.callbacks.onStartedLeading(leadership.signal);
    const end = await this.renewUntilLost(signal);
    this.leading = false;
    leadership.abort();
    if (end === 'lost') this.log.warn('lost the lease; stopping');
    this.callbacks.onStoppedLeading();
    if (end === 'stopped' && (this.config.releaseOnStop ?? true)) await this.release();
    return end;
  }

  private async acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      const attempt = await this.tryAcquireOrRenew(signal);
      if (attempt === 'acquired' || attempt === 'renewed') return true;
      await sleep(this.retryPeriodMs * (1 + Math.random() * 0.2), signal);
    }
    return false;
  }

  private async renewUntilLost(signal: AbortSignal): Promise<LeadershipEnd> {
    let renewedAt = Date.now();
    for (;;) {
      const left = () => this.renewDeadlineMs - (Date.now() - renewedAt);
      await sleep(Math.min(this.retryPeriodMs, Math.max(left(), 0)), signal);
      if (signal.aborted) return 'stopped';
      const sentAt = Date.now();
      const attempt = await this.tryAcquireOrRenew(AbortSignal.any([signal, AbortSignal.timeout(Math.max(left(), 1))]));
      if (signal.aborted) return 'stopped';
      // The renewal counts from when it was sent: others may have seen the lease change from then on.
      if (attempt === 'renewed' || attempt === 'acquired') renewedAt = sentAt;
      else if (attempt === 'held') return 'lost';
      else if (left() <= 0) return 'lost';
    }
  }

  /** One round: read the lease, then create it, take it over or renew it, conditionally on what was read. */
  private async tryAcquireOrRenew(signal: AbortSignal): Promise<Attempt> {
    const { client, leaseName } = this.config;
    const now = new Date().toISOString();
    let lease: Lease;
    try {
      lease = await client.get<Lease>(LEASES, leaseName, { signal });
    } catch (err) {
      return isNotFound(err) ? this.createLease(now, signal) : this.failed(err, 'reading the lease');
    }
    return this.takeOrRenew(lease, now, signal);
  }

  /** Creates the lease, held by this candidate: there was none. */
  private async createLease(now: string, signal: AbortSignal): Promise<Attempt> {
    try {
      const created = await this.config.client.create<Lease>(
        LEASES,
        this.leaseObject(undefined, this.specFor(undefined, now)),
        { signal },
      );
      this.observe(created);
      return 'acquired';
    } catch (err) {
      return this.failed(err, 'creating the lease');
    }
  }

  /** Renews the lease this candidate holds, or takes over one another holder let expire (or released). */
  private async takeOrRenew(lease: Lease, now: string, signal: AbortSignal): Promise<Attempt> {
    const { client, identity } = this.config;
    this.observe(lease);
    const holder = lease.spec?.holderIdentity ?? '';
    if (holder !== '' && holder !== identity && this.observedValid(lease.spec)) return 'held';
    try {
      this.observe(
        await client.update<Lease>(LEASES, this.leaseObject(lease, this.specFor(lease.spec, now)), { signal }),
      );
      return holder === identity ? 'renewed' : 'acquired';
    } catch (err) {
      return this.failed(err, holder === identity ? 'renewing the lease' : 'taking the lease over');
    }
  }

  /** Gives the lease up (holder '', 1 s duration) so that a standby takes it at once. */
  private async release(): Promise<void> {
    const { client, leaseName, identity } = this.config;
    try {
      const lease = await client.get<Lease>(LEASES, leaseName, { signal: AbortSignal.timeout(this.renewDeadlineMs) });
      if (lease.spec?.holderIdentity !== identity) return;
      const spec: LeaseSpec = {
        ...lease.spec,
        holderIdentity: '',
        leaseDurationSeconds: 1,
        renewTime: new Date().toISOString(),
      };
      await client.update<Lease>(LEASES, this.leaseObject(lease, spec), {
        signal: AbortSignal.timeout(this.renewDeadlineMs),
      });
      this.log.info('released the lease');
    } catch (err) {
      this.log.warn({ err }, 'could not release the lease; a standby takes over once it expires');
    }
  }

  /** The spec this candidate writes when it holds the lease. */
  private specFor(current: LeaseSpec | undefined, now: string): LeaseSpec {
    const mine = current?.holderIdentity === this.config.identity;
    return {
      holderIdentity: this.config.identity,
      leaseDurationSeconds: this.leaseDurationMs / 1000,
      acquireTime: mine ? (current?.acquireTime ?? now) : now,
      renewTime: now,
      leaseTransitions: (current?.leaseTransitions ?? 0) + (mine || current === undefined ? 0 : 1),
    };
  }

  private leaseObject(current: Lease | undefined, spec: LeaseSpec): Lease {
    if (current) return { ...current, spec };
    return {
      apiVersion: `${LEASES.group}/${LEASES.version}`,
      kind: 'Lease',
      metadata: { name: this.config.leaseName },
      spec,
    };
  }

  /** Records when this candidate first saw the lease's current version, on its own clock. */
  private observe(lease: Lease): void {
    if (lease.metadata.resourceVersion === this.observedVersion) return;
    this.observedVersion = lease.metadata.resourceVersion;
    this.observedAt = Date.now();
    const holder = lease.spec?.holderIdentity ?? '';
    if (holder !== this.observedHolder) {
      this.observedHolder = holder;
      this.log.info({ holder }, 'lease holder changed');
      this.callbacks.onNewLeader?.(holder);
    }
  }

  private observedValid(spec: LeaseSpec | undefined): boolean {
    const durationMs = (spec?.leaseDurationSeconds ?? this.leaseDurationMs / 1000) * 1000;
    return this.observedAt + durationMs > Date.now();
  }

  private failed(err: unknown, what: string): Attempt {
    this.log.debug({ err }, `${what} failed`);
    return 'failed';
  }
}
