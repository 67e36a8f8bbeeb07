/**
 * Reads `svc_controller_leader` from every controller-manager's `/metrics`
 * every `intervalMs`, and records when one leads and whether two ever lead at
 * once. A process that does not answer counts as not leading.
 */
export class LeaderSampler {
  /** Rounds in which two or more controller-managers said they lead. */
  overlaps = 0;
  rounds = 0;
  /** Which one (index) led at each round, -1 when none. */
  private current = -1;
  private readonly timer: NodeJS.Timeout;
  private sampling: Promise<void> = Promise.resolve();

  constructor(
    private readonly metricsUrls: readonly string[],
    intervalMs = 100,
  ) {
    this.timer = setInterval(() => {
      this.sampling = this.sampling.then(() => this.sample());
    }, intervalMs);
  }

  /** The index of the controller-manager that leads now, -1 when none (as last sampled). */
  leader(): number {
    return this.current;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sampling;
  }

  private async sample(): Promise<void> {
    const leading = await Promise.all(this.metricsUrls.map((url) => leads(url)));
    const leaders = leading.flatMap((yes, i) => (yes ? [i] : []));
    this.rounds++;
    if (leaders.length > 1) this.overlaps++;
    this.current = leaders.length === 1 ? leaders[0] : -1;
  }
}

/** Whether the controller-manager serving `/metrics` at `url` says it leads. */
async function leads(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    return /^svc_controller_leader\{[^}]*\} 1$/m.test(await res.text());
  } catch {
    return false;
  }
}
