/**
 * On the real broker: the Kafka transport publishes steps keyed `tenantId:agentId` on the steps topic
 * (the key the services partition by), and from the shared corrections topic delivers only its own
 * agent's corrections of its own tenant.
 */
import { randomBytes } from 'node:crypto';
import { Kafka, Partitioners, logLevel } from 'kafkajs';
import type { Correction } from '@wayfinder/contracts';
import { createTopics } from '@wayfinder/bus';
import { connectKafka } from '../connect';
import { hintFor } from '../testing/contract-gateway.testing';

const brokers = (process.env.WAYFINDER_KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const prefix = `it-sdk-kafka-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}.`;
const kafka = new Kafka({ clientId: 'sdk-kafka-test', brokers, logLevel: logLevel.NOTHING });

describe('Kafka transport', () => {
  beforeAll(async () => {
    await createTopics(brokers, { topicPrefix: prefix, only: ['wayfinder.steps.v1', 'wayfinder.corrections.v1'], partitionsOverride: 3 });
  });
  afterAll(async () => {
    const admin = kafka.admin();
    await admin.connect();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    await admin.deleteTopics({ topics }).catch(() => undefined);
    const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => g.startsWith(prefix));
    await admin.deleteGroups(groups).catch(() => undefined);
    await admin.disconnect();
  });

  it('keys steps by tenant and agent and delivers only its own corrections', async () => {
    const client = connectKafka({ brokers, topicPrefix: prefix, tenantId: 'acme', agentId: 'agent-1', taskId: 'report', onError: () => undefined });
    const seen: Correction[] = [];
    const subscription = client.onCorrection((c) => void seen.push(c));

    const callId = await client.action('read_file', { path: '/data/sales.csv' });
    await client.observation('read_file', { callId, ok: false, error: 'EACCES' });
    await expect(client.flush()).resolves.toEqual({ accepted: 2, rejected: [] });

    const consumer = kafka.consumer({ groupId: `${prefix}reader` });
    const read: Array<{ key: string; seq: number; tenantId: string; partition: number }> = [];
    await consumer.connect();
    await consumer.subscribe({ topic: `${prefix}wayfinder.steps.v1`, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        const step = JSON.parse(String(message.value)) as { seq: number; tenantId: string };
        read.push({ key: String(message.key), seq: step.seq, tenantId: step.tenantId, partition });
      },
    });

    // The subscription starts at the end of the topic once its group joined: publish until it has one.
    const producer = kafka.producer();
    await producer.connect();
    const mine = hintFor('agent-1', 1, 'acme');
    const others = [hintFor('agent-1', 2, 'globex'), hintFor('agent-2', 3, 'acme')];
    const deadline = Date.now() + 60_000;
    while ((seen.length === 0 || read.length < 2) && Date.now() < deadline) {
      await producer.send({
        topic: `${prefix}wayfinder.corrections.v1`,
        messages: [...others, mine].map((c) => ({ key: `${c.tenantId}:${c.agentId}`, value: JSON.stringify(c) })),
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    await producer.disconnect();
    await consumer.disconnect();

    // The partition the services' producer (kafkajs' DefaultPartitioner) picks for the same key.
    const expected = Partitioners.DefaultPartitioner()({ topic: 'steps', message: { key: 'acme:agent-1', value: '' }, partitionMetadata: [0, 1, 2].map((partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] })) });
    expect(read).toEqual([
      { key: 'acme:agent-1', seq: 0, tenantId: 'acme', partition: expected },
      { key: 'acme:agent-1', seq: 1, tenantId: 'acme', partition: expected },
    ]);
    expect(seen.map((c) => c.eventId)).toEqual([mine.eventId]);
    await subscription.close();
    await client.close();
  }, 90_000);
});
