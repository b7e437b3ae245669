/**
 * The scenario both transport specs run (in-process and Kafka): five steps and one invalid message
 * through the Nest test app. Handlers must see the steps in order with their key and topic, the failing
 * handler must be retried without repeating the others, and the invalid message must reach the `.dlq`
 * pattern with its reason. Jest's `expect` is a global of the calling spec.
 */
import type { Bus } from '../../bus';
import { stepEvent, waitFor } from '../../bus.contract';
import { startStepsApp } from './steps-app';

export async function runStepsAppScenario(bus: Bus, waitMs: number): Promise<void> {
  const { app, record } = await startStepsApp(bus, 'steps-app');
  try {
    await bus.publish('wayfinder.steps.v1', [0, 1, 2, 3, 4].map((seq) => stepEvent('a1', seq)));
    await bus.publishRaw('wayfinder.steps.v1', 'tenant-a:a1', '{"kind":"action"}');
    await waitFor(() => record.steps.length >= 5 && record.dead.length >= 1, waitMs, 'handled steps and the dead letter');

    expect(record.steps.map((s) => s.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(record.steps[0]).toEqual({ seq: 0, key: 'tenant-a:a1', topic: 'wayfinder.steps.v1' });
    expect(record.failuresLeft).toBe(-1);
    expect(record.dead).toEqual([{ bytes: '{"kind":"action"}', error: expect.stringMatching(/^schema violation/) }]);
  } finally {
    await app.close();
  }
}
