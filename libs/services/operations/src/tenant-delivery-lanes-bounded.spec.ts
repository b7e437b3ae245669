/**
 * TenantDeliveryLanes: each tenant's deliveries go in order, one at a time, retried with backoff and then
 * given up with the last reason; a delivery already waiting is not queued twice; a tenant's lane and all
 * lanes together are bounded (refused as `full`, with a reason naming which bound).
 */
import { TenantDeliveryLanes, type Delivery } from './tenant-delivery-lanes';

function delivery(id: string, outcomes: boolean[], log: string[]): Delivery {
  let tries = 0;
  return {
    id,
    send: async () => {
      const ok = outcomes[Math.min(tries++, outcomes.length - 1)];
      log.push(`${id}:${ok ? 'ok' : 'fail'}`);
      if (!ok) throw new Error(`${id} refused`);
    },
    giveUp: async (reason, attempts) => void log.push(`${id}:gave up after ${attempts} (${reason})`),
  };
}

const fast = { maxWaiting: 2, maxWaitingTotal: 3, maxAttempts: 3, initialBackoffMs: 1, maxBackoffMs: 2 };

describe('TenantDeliveryLanes', () => {
  it('sends a tenant’s deliveries in order, retries, and gives up with the last reason', async () => {
    const lanes = new TenantDeliveryLanes(fast);
    const log: string[] = [];
    expect(lanes.submit('t1', delivery('a', [false, true], log))).toBe('queued');
    expect(lanes.submit('t1', delivery('b', [false], log))).toBe('queued');
    await lanes.idle();
    expect(log).toEqual(['a:fail', 'a:ok', 'b:fail', 'b:fail', 'b:fail', 'b:gave up after 3 (b refused)']);
    expect(lanes.waiting('t1')).toBe(0);
  });

  it('does not queue a waiting delivery twice, and bounds each lane and all lanes', async () => {
    const lanes = new TenantDeliveryLanes(fast);
    const log: string[] = [];
    const never = () => ({ id: '', send: () => new Promise<void>(() => undefined), giveUp: async () => undefined });
    expect(lanes.submit('t1', { ...never(), id: 'x' })).toBe('queued');
    expect(lanes.submit('t1', { ...never(), id: 'x' })).toBe('duplicate');
    expect(lanes.submit('t1', { ...never(), id: 'y' })).toBe('queued');
    expect(lanes.submit('t1', { ...never(), id: 'z' })).toBe('full');
    expect(lanes.fullReason('t1')).toBe('the webhook of tenant t1 has 2 deliveries waiting');
    expect(lanes.submit('t2', { ...never(), id: 'x' })).toBe('queued');
    expect(lanes.submit('t3', delivery('w', [true], log))).toBe('full');
    expect(lanes.fullReason('t3')).toBe('the notifier has 3 deliveries waiting for all tenants (tenant t3: 0)');
    lanes.stop();
  });
});
