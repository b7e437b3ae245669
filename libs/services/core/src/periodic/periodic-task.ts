/**
 * A timer that runs an async task and awaits it: never two runs at once, and a failure is logged (with
 * the task's name) instead of becoming an unhandled rejection; the next run retries. Used for every
 * timer-driven publish and for state eviction.
 */
export interface PeriodicTaskOptions {
  readonly name: string;
  readonly everyMs: number;
  readonly run: () => Promise<unknown>;
  readonly onError: (name: string, error: unknown) => void;
}

export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(private readonly options: PeriodicTaskOptions) {}

  start(): void {
    this.timer = setInterval(() => void this.runOnce(), this.options.everyMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a run in flight. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One run now (unless one is in flight, which is awaited instead). */
  runOnce(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.options
      .run()
      .then(
        () => undefined,
        (error: unknown) => this.options.onError(this.options.name, error),
      )
      .finally(() => (this.running = undefined));
    return this.running;
  }
}
