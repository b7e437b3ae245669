// The Nest test app (testing/steps-app.ts) on the in-process bus: @EventPattern handlers get validated
// payloads in per-key order with a BusContext, a failing handler is retried without re-running the
// messages that already succeeded, and invalid input reaches the `.dlq` pattern with its reason.
import { stepEvent, waitFor } from '../bus.contract';
import { InProcessBus } from '../in-process.bus';
import { startStepsApp } from './testing/steps-app';

describe('BusTransport running a Nest microservice on the in-process bus', () => {
  it('runs @EventPattern handlers in order, retries a failing one without repeating the others, dead-letters invalid input', async () => {
    const bus = new InProcessBus({ retry: { maxAttempts: 3, initialBackoffMs: 5, maxBackoffMs: 20 } });
    const { app, record } = await startStepsApp(bus, 'steps-app');
    try {
      await bus.publish('wayfinder.steps.v1', [0, 1, 2, 3, 4].map((seq) => stepEvent('a1', seq)));
      await bus.publishRaw('wayfinder.steps.v1', 'tenant-a:a1', '{"kind":"action"}');
      await waitFor(() => record.steps.length >= 5 && record.dead.length >= 1, 5_000, 'handled steps and the dead letter');

      expect(record.steps.map((s) => s.seq)).toEqual([0, 1, 2, 3, 4]);
      expect(record.steps[0]).toEqual({ seq: 0, key: 'tenant-a:a1', topic: 'wayfinder.steps.v1' });
      expect(record.failuresLeft).toBe(-1);
      expect(record.dead).toEqual([{ bytes: '{"kind":"action"}', error: expect.stringMatching(/^schema violation/) }]);
    } finally {
      await app.close();
    }
  });
});
