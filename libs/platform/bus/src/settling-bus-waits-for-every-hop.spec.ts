/** SettlingBus.settled() waits for every subscriber, including what handlers publish in turn, and times out on what never settles. */
import type { LocalizedStep, StepEvent } from '@wayfinder/contracts';
import { InProcessBus } from './in-process.bus';
import { SettlingBus } from './settling.bus';

function step(seq: number): StepEvent {
  return { schema: 'wayfinder.step.v1', eventId: `e${seq}`, tenantId: 't', agentId: `a${seq % 3}`, taskId: 'k', seq, ts: '2026-01-01T00:00:00.000Z', kind: 'message', message: { role: 'assistant', text: `m${seq}` } };
}

describe('SettlingBus', () => {
  it('settles only after a second hop, published by the first handler, has been handled', async () => {
    const bus = new SettlingBus(new InProcessBus());
    const handled: number[] = [];
    bus.subscribe(
      'wayfinder.steps.v1',
      async (batch) => {
        const localized: LocalizedStep[] = batch.map(({ payload }) => ({
          schema: 'wayfinder.localized.v1', eventId: payload.eventId, tenantId: payload.tenantId, ts: payload.ts, step: payload,
          position: { milestoneId: null, completed: [], progress: 0, confidence: 0, method: 'unknown' },
        }));
        await bus.publish('wayfinder.localized.v1', localized);
      },
      { groupId: 'hop-1' },
    );
    bus.subscribe(
      'wayfinder.localized.v1',
      async (batch) => {
        await new Promise((r) => setTimeout(r, 20));
        handled.push(...batch.map((d) => d.payload.step.seq));
      },
      { groupId: 'hop-2' },
    );
    await bus.start();
    try {
      await bus.publish('wayfinder.steps.v1', Array.from({ length: 30 }, (_, i) => step(i)));
      expect(bus.pending).toBeGreaterThan(0);
      await bus.settled(5_000);
      expect(bus.pending).toBe(0);
      expect(handled.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    } finally {
      await bus.stop();
    }
  });

  it('rejects naming what is left when a message never reaches its handler', async () => {
    const bus = new SettlingBus(new InProcessBus({ retry: { maxAttempts: 1, initialBackoffMs: 1, maxBackoffMs: 1 } }));
    bus.subscribe('wayfinder.steps.v1', async () => undefined, { groupId: 'g' });
    await bus.start();
    try {
      // Not a valid step: the in-process bus sends it to the DLQ, so the subscriber never counts it.
      await bus.publishRaw('wayfinder.steps.v1', 't:a', '{"not":"a step"}');
      await expect(bus.settled(200)).rejects.toThrow(/did not settle within 200 ms: 1 message/);
    } finally {
      await bus.stop();
    }
  });
});
