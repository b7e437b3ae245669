/**
 * What both framework adapters share: corrections arrive in the background (onCorrection) and wait
 * here until the agent's next model call, where they are applied to its messages and acknowledged.
 */
import type { Correction } from '@wayfinder/contracts';
import { applyCorrection, type ApplyOptions } from '../apply/apply-correction';
import type { Subscription } from '../transport';
import type { WayfinderClient } from '../wayfinder-client';

export class PendingCorrections {
  private readonly queue: Correction[] = [];
  private readonly subscription: Subscription;
  /** Every correction applied so far, in order. */
  readonly applied: Correction[] = [];

  constructor(private readonly client: WayfinderClient) {
    this.subscription = client.onCorrection((correction) => void this.queue.push(correction));
  }

  get size(): number {
    return this.queue.length;
  }

  /**
   * Applies what arrived to `messages` (hint at the front, rollback, replan) and acks each; throws
   * AgentFrozenError on a freeze. Flushes first, so the corrections of the steps so far are in (the guard).
   */
  async applyTo<M extends object>(messages: readonly M[], options: ApplyOptions<M>): Promise<M[]> {
    await this.client.flush();
    let out = [...messages];
    for (const correction of this.queue.splice(0)) {
      this.applied.push(correction);
      out = applyCorrection(out, correction, options);
      await this.client.ack(correction, 'applied');
    }
    return out;
  }

  close(): Promise<void> {
    return this.subscription.close();
  }
}
