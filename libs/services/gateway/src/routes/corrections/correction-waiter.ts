/**
 * Waits for an agent's next corrections after a cursor: woken at once when this process logs one (the
 * corrections feed), and re-reading the log every `pollMs` meanwhile, since in distributed mode another
 * gateway instance's feed may have logged it.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Correction } from '@wayfinder/contracts';
import type { CorrectionLog, LoggedCorrection } from '@wayfinder/tenancy';
import { CORRECTION_LOG, GATEWAY_OPTIONS, type GatewayOptions } from '../../tokens';

export const MAX_CORRECTIONS_PER_READ = 100;

@Injectable()
export class CorrectionWaiter {
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(
    @Inject(CORRECTION_LOG) private readonly log: CorrectionLog,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
  ) {}

  /** Wakes the waiters of the agents these corrections are for. */
  notify(corrections: readonly Correction[]): void {
    for (const c of corrections) {
      const key = agentKey(c.tenantId, c.agentId);
      const wake = this.waiting.get(key);
      if (!wake) continue;
      this.waiting.delete(key);
      for (const resolve of wake) resolve();
    }
  }

  /** The corrections after `cursor`, waiting up to `waitMs` for at least one (empty when none came or `signal` aborted). */
  async next(tenantId: string, agentId: string, cursor: string | undefined, waitMs: number, signal?: AbortSignal): Promise<LoggedCorrection[]> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const found = await this.log.after(tenantId, agentId, cursor, MAX_CORRECTIONS_PER_READ);
      const left = deadline - Date.now();
      if (found.length > 0 || left <= 0 || signal?.aborted) return found;
      await this.sleep(agentKey(tenantId, agentId), Math.min(left, this.options.pollMs), signal);
    }
  }

  private sleep(key: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let set = this.waiting.get(key);
      if (!set) this.waiting.set(key, (set = new Set()));
      const waiters = set;
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        waiters.delete(done);
        if (waiters.size === 0 && this.waiting.get(key) === waiters) this.waiting.delete(key);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      waiters.add(done);
    });
  }
}

function agentKey(tenantId: string, agentId: string): string {
  return `${tenantId}\u0000${agentId}`;
}
