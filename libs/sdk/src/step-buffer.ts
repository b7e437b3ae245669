/**
 * The client's bounded buffer of outgoing steps: batches of `batchSize` go out one at a time, in order;
 * a full buffer makes the next `push` wait until a batch has gone out (back-pressure instead of memory
 * growth), and a failed batch stays at the front to be sent again by the next flush (nothing is lost).
 */
import type { OutgoingStep, PublishOutcome, RejectedStep } from './transport';

export interface StepBufferOptions {
  send: (steps: readonly OutgoingStep[]) => Promise<PublishOutcome>;
  batchSize: number;
  maxBuffered: number;
  /** A partial batch goes out after this long; 0 sends at once. */
  flushIntervalMs: number;
  /** A background send failed (the steps stay buffered) or the destination rejected steps. */
  onError: (error: Error) => void;
}

export interface RejectedOutgoingStep extends RejectedStep {
  step: OutgoingStep;
}

export interface FlushResult {
  accepted: number;
  rejected: RejectedOutgoingStep[];
}

export class StepRejectedError extends Error {
  constructor(readonly rejected: RejectedOutgoingStep[]) {
    super(`wayfinder: ${rejected.length} step(s) rejected; first: seq ${rejected[0]?.step.seq} ${rejected[0]?.field ?? ''}: ${rejected[0]?.error}`);
    this.name = 'StepRejectedError';
  }
}

const RETRY_PAUSE_MS = 1_000;

export class StepBuffer {
  private readonly queue: OutgoingStep[] = [];
  private sending: Promise<FlushResult> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly waiters: Array<() => void> = [];

  constructor(private readonly options: StepBufferOptions) {}

  get size(): number {
    return this.queue.length;
  }

  /** Resolves once the step is buffered: at once while there is room, else after a batch went out. */
  async push(step: OutgoingStep): Promise<void> {
    while (this.queue.length >= this.options.maxBuffered) {
      this.kick();
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    this.queue.push(step);
    if (this.queue.length >= this.options.batchSize || this.options.flushIntervalMs === 0) this.kick();
    else this.timer ??= setTimeout(() => this.kick(), this.options.flushIntervalMs);
  }

  /** Sends everything buffered so far; rejects when a batch cannot be sent (it stays buffered). */
  async flush(): Promise<FlushResult> {
    const total: FlushResult = { accepted: 0, rejected: [] };
    while (this.queue.length > 0 || this.sending) {
      const result = await (this.sending ?? this.startSending());
      total.accepted += result.accepted;
      total.rejected.push(...result.rejected);
    }
    return total;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Starts a background send unless one runs; its failure is reported, the steps stay buffered. */
  private kick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.sending || this.queue.length === 0) return;
    this.startSending().then(
      (result) => {
        if (result.rejected.length > 0) this.options.onError(new StepRejectedError(result.rejected));
        if (this.queue.length >= this.options.batchSize) this.kick();
        else if (this.queue.length > 0) this.timer ??= setTimeout(() => this.kick(), this.options.flushIntervalMs);
      },
      (error: Error) => {
        this.options.onError(error);
        // Writers waiting for room try again after a pause, not in a tight loop against a failing door.
        setTimeout(() => this.wakeWaiters(), RETRY_PAUSE_MS).unref();
      },
    );
  }

  private startSending(): Promise<FlushResult> {
    const batch = this.queue.slice(0, this.options.batchSize);
    const sending = this.options.send(batch).then(
      (outcome) => {
        this.queue.splice(0, batch.length);
        this.sending = undefined;
        this.wakeWaiters();
        return { accepted: outcome.accepted, rejected: outcome.rejected.map((r) => ({ ...r, step: batch[r.index] })) };
      },
      (error: unknown) => {
        this.sending = undefined;
        throw error instanceof Error ? error : new Error(String(error));
      },
    );
    this.sending = sending;
    return sending;
  }

  private wakeWaiters(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }
}
