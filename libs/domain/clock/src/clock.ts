/**
 * The Clock port (STYLE "ports at the edges"): code where time decides something (hold timeouts, idle
 * eviction, keep-alive, stagnation ticks, suppression windows, missing-map caching) reads it through a
 * Clock, so a test sets the time instead of waiting for it and a replay can run on recorded time. The
 * system clock is the one place that reads the machine's time.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The machine's clock. `systemClock.now` may be passed on as a plain function. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told (tests, replays). */
export class ManualClock implements Clock {
  constructor(private ms = 0) {}

  readonly now = (): number => this.ms;

  /** Moves the clock forward (or back, with a negative step) by `ms`. */
  advance(ms: number): void {
    this.ms += ms;
  }

  set(ms: number): void {
    this.ms = ms;
  }
}
