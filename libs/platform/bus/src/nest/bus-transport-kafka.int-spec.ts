// The same Nest test app as bus-transport-steps-app.spec.ts, on the real Kafka broker: handlers do not
// know which transport carries them (DESIGN §3).
// Tests of a platform lib may use the infra helpers of libs/testing, which platform code may not import.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { deleteTestTopics, kafkaBrokers, requireKafka, uniqueTestName } from '../../../../testing/src/infra/kafka';
import { stepEvent, waitFor } from '../bus.contract';
import { KafkaBus } from '../kafka.bus';
import { createTopics } from '../topic-admin';
import { startStepsApp } from './testing/steps-app';

describe('BusTransport running a Nest microservice on Kafka', () => {
  it('runs @EventPattern handlers in order, retries a failing one without repeating the others, dead-letters invalid input', async () => {
    const brokers = await requireKafka(kafkaBrokers());
    const topicPrefix = `${uniqueTestName('nest')}.`;
    await createTopics(brokers, { topicPrefix, only: ['wayfinder.steps.v1'], partitionsOverride: 2 });
    const bus = new KafkaBus({ brokers, topicPrefix, retry: { maxAttempts: 3, initialBackoffMs: 20, maxBackoffMs: 100 } });
    const { app, record } = await startStepsApp(bus, 'steps-app');
    try {
      await bus.publish('wayfinder.steps.v1', [0, 1, 2, 3, 4].map((seq) => stepEvent('a1', seq)));
      await bus.publishRaw('wayfinder.steps.v1', 'tenant-a:a1', '{"kind":"action"}');
      await waitFor(() => record.steps.length >= 5 && record.dead.length >= 1, 30_000, 'handled steps and the dead letter');

      expect(record.steps.map((s) => s.seq)).toEqual([0, 1, 2, 3, 4]);
      expect(record.steps[0]).toEqual({ seq: 0, key: 'tenant-a:a1', topic: 'wayfinder.steps.v1' });
      expect(record.failuresLeft).toBe(-1);
      expect(record.dead).toEqual([{ bytes: '{"kind":"action"}', error: expect.stringMatching(/^schema violation/) }]);
    } finally {
      await app.close();
      await deleteTestTopics(brokers, topicPrefix);
    }
  });
});
