// The same Nest test app as bus-transport-steps-app.spec.ts, on the real Kafka broker: handlers do not
// know which transport carries them (DESIGN §3).
// Tests of a platform lib may use the infra helpers of libs/testing, which platform code may not import.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { deleteTestTopics, kafkaBrokers, requireKafka, uniqueTestName } from '../../../../testing/src/infra/kafka';
import { KafkaBus } from '../kafka.bus';
import { createTopics } from '../topic-admin';
import { runStepsAppScenario } from './testing/steps-app-scenario';

describe('BusTransport running a Nest microservice on Kafka', () => {
  it('runs @EventPattern handlers in order, retries a failing one without repeating the others, dead-letters invalid input', async () => {
    const brokers = await requireKafka(kafkaBrokers());
    const topicPrefix = `${uniqueTestName('nest')}.`;
    await createTopics(brokers, { topicPrefix, only: ['wayfinder.steps.v1'], partitionsOverride: 2 });
    const bus = new KafkaBus({ brokers, topicPrefix, retry: { maxAttempts: 3, initialBackoffMs: 20, maxBackoffMs: 100 } });
    try {
      await runStepsAppScenario(bus, 30_000);
    } finally {
      await deleteTestTopics(brokers, topicPrefix);
    }
  });
});
