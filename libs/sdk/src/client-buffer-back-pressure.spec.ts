/**
 * Back-pressure: while the destination holds a batch, the helpers accept steps up to `maxBuffered`;
 * the next one waits until a batch went out. Nothing is dropped and order is kept.
 */
import { WayfinderClient } from './wayfinder-client';
import type { OutgoingStep, PublishOutcome, Transport } from './transport';

class HeldTransport implements Transport {
  readonly batches: OutgoingStep[][] = [];
  private release: (() => void) | undefined;
  held = true;
  async publish(steps: readonly OutgoingStep[]): Promise<PublishOutcome> {
    if (this.held) await new Promise<void>((resolve) => (this.release = resolve));
    this.batches.push([...steps]);
    return { accepted: steps.length, rejected: [] };
  }
  open(): void {
    this.held = false;
    this.release?.();
  }
  async postTask(): Promise<undefined> {
    return undefined;
  }
  subscribe(): never {
    throw new Error('not used');
  }
  async ack(): Promise<void> {
    // not used
  }
  async close(): Promise<void> {
    // nothing held
  }
}

describe('client buffer back-pressure', () => {
  it('makes the step after a full buffer wait until the held batch is accepted', async () => {
    const transport = new HeldTransport();
    const client = new WayfinderClient({ transport, agentId: 'a', taskId: 't', batchSize: 4, maxBuffered: 8, flushIntervalMs: 0 });
    for (let i = 0; i < 8; i++) await client.message(`m${i}`);
    expect(client.buffered).toBe(8);
    let ninthBuffered = false;
    const ninth = client.message('m8').then(() => (ninthBuffered = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ninthBuffered).toBe(false);
    transport.open();
    await ninth;
    await client.flush();
    expect(transport.batches.flat().map((s) => s.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(transport.batches.every((b) => b.length <= 4)).toBe(true);
  });
});
