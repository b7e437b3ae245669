// Acceptance test of the Kafka bus: 10,000 valid step events of 100 agents, interleaved, with 100
// invalid ones mixed in, consumed by a consumer that is restarted (not the broker) in the middle.
// Every valid event arrives once, in per-agent seq order; every invalid one is in the DLQ with its reason.
import { DLQ_HEADERS, dlqTopicOf, type StepEvent } from '@wayfinder/contracts';
// Tests of a platform lib may use the infra helpers of libs/testing, which platform code may not import.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { deleteTestTopics, kafkaBrokers, kafkaClientUnderTest, requireKafka, uniqueTestName } from '../../../testing/src/infra/kafka';
import type { Bus, Delivered } from './bus';
import { stepEvent, waitFor } from './bus.contract';
import { createKafkaBus } from './kafka-client';
import { createTopics } from './topic-admin';

const STEPS = 'wayfinder.steps.v1' as const;
const AGENTS = 100;
const SEQS = 100;
const brokers = kafkaBrokers();

describe(`Kafka bus (${kafkaClientUnderTest()}) with 10,000 interleaved step events, 100 invalid ones and a consumer restart`, () => {
  const buses: Bus[] = [];
  const topicPrefix = `${uniqueTestName('10k')}.`;
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.stop()));
    await deleteTestTopics(brokers, topicPrefix);
  });

  it('delivers every valid event once and in order per agent, and dead-letters every invalid one with its reason', async () => {
    await requireKafka(brokers);
    await createTopics(brokers, { topicPrefix, only: [STEPS], partitionsOverride: 6 });
    const open = () => {
      const bus = createKafkaBus(kafkaClientUnderTest(), { brokers, topicPrefix, clientId: 'bus-10k' });
      buses.push(bus);
      return bus;
    };

    const received: Delivered<StepEvent>[] = [];
    const dead: Delivered<Buffer>[] = [];
    const consume = (bus: Bus) =>
      bus.subscribe(STEPS, async (batch) => void received.push(...batch), { groupId: 'steps-10k', maxBatchSize: 200 });

    const producer = open();
    producer.subscribeRaw(dlqTopicOf(STEPS), async (batch) => void dead.push(...batch), { groupId: 'dlq-10k' });
    await producer.start();
    let consumer = open();
    consume(consumer);
    await consumer.start();

    const invalid = new Map<string, 'json' | 'schema'>();
    const publishing = (async () => {
      for (let seq = 0; seq < SEQS; seq++) {
        const agent = `agent-${(seq * 37) % AGENTS}`;
        const bad =
          seq % 2 === 0
            ? `{"schema":"wayfinder.step.v1","eventId":"broken-${seq}",`
            : JSON.stringify({ ...stepEvent(agent, seq), eventId: `bad-${seq}`, seq: -1 });
        invalid.set(bad, seq % 2 === 0 ? 'json' : 'schema');
        const round = Array.from({ length: AGENTS }, (_, i) => stepEvent(`agent-${i}`, seq));
        await producer.publish(STEPS, round.slice(0, 50));
        await producer.publishRaw(STEPS, `tenant-a:${agent}`, bad);
        await producer.publish(STEPS, round.slice(50));
      }
    })();

    await waitFor(() => received.length >= 4_000, 60_000, '4,000 deliveries before the restart');
    await consumer.stop();
    const beforeRestart = received.length;
    consumer = open();
    consume(consumer);
    await consumer.start();
    await publishing;
    await waitFor(() => received.length >= AGENTS * SEQS && dead.length >= 100, 90_000, 'all valid and invalid events');
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    expect(beforeRestart).toBeLessThan(AGENTS * SEQS);
    const ids = received.map((d) => d.payload.eventId);
    expect(new Set(ids).size).toBe(AGENTS * SEQS);
    expect(received).toHaveLength(AGENTS * SEQS);
    for (let i = 0; i < AGENTS; i++) {
      const seqs = received.filter((d) => d.payload.agentId === `agent-${i}`).map((d) => d.payload.seq);
      expect(seqs).toEqual(Array.from({ length: SEQS }, (_, s) => s));
    }

    expect(dead).toHaveLength(100);
    expect(new Set(dead.map((d) => d.payload.toString('utf8')))).toEqual(new Set(invalid.keys()));
    for (const letter of dead) {
      const kind = invalid.get(letter.payload.toString('utf8'));
      expect(letter.headers[DLQ_HEADERS.error]).toMatch(kind === 'json' ? /^invalid JSON/ : /^schema violation: seq:/);
      expect(letter.headers[DLQ_HEADERS.sourceTopic]).toBe(`${topicPrefix}${STEPS}`);
    }
    expect(received.length + dead.length).toBe(AGENTS * SEQS + 100);
  });
});
