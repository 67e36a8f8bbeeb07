/**
 * Whether a plugin's worker thread still turns its event loop: a `ping` it
 * answers with a `pong` unless its thread is blocked (an endless loop in a
 * handler, say). A route that timed out asks; one check at a time, shared.
 */
export class LivenessCheck {
  private pending?: Promise<boolean>;
  private answer?: () => void;

  constructor(
    private readonly ping: () => void,
    private readonly boundMs: number,
  ) {}

  /** Resolves true once the worker answers, false when it does not within the bound. */
  check(): Promise<boolean> {
    this.pending ??= new Promise<boolean>((resolve) => {
      let settled = false;
      const done = (alive: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.pending = undefined;
        this.answer = undefined;
        resolve(alive);
      };
      // When this thread's own loop was blocked past the bound, the pong may be waiting behind the timer: timers
      // run before the loop delivers messages, setImmediate after, so the verdict waits for what has arrived.
      const timer = setTimeout(() => setImmediate(() => done(false)), this.boundMs);
      this.answer = () => done(true);
      this.ping();
    });
    return this.pending;
  }

  /** The worker's `pong`. */
  answered(): void {
    this.answer?.();
  }
}
