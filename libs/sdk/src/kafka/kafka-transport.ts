/**
 * The direct transport for agents that speak Kafka: steps go to the steps topic keyed `tenantId:agentId`
 * (so an agent's steps stay in order on one partition), corrections are read from the corrections topic
 * and only this agent's, of this tenant, are delivered. kafkajs is an optional peer dependency: it is
 * loaded only when this transport is used.
 */
import { randomUUID } from 'node:crypto';
import type { Consumer, Kafka, Producer } from 'kafkajs';
import { Correction, TaskSpec, TOPICS } from '@wayfinder/contracts';
import { checkStep } from '../validate-step';
import type { AckOutcome, OutgoingStep, OutgoingTask, PublishOutcome, RejectedStep, SubscribeRequest, Subscription, Transport } from '../transport';

export interface KafkaTransportOptions {
  brokers: string[];
  /** Every step is of this tenant; corrections of other tenants are never delivered. */
  tenantId: string;
  clientId?: string;
  /** Prepended to topic names, as the services' WAYFINDER_TOPIC_PREFIX. */
  topicPrefix?: string;
  /**
   * Consumer group for corrections (default `<prefix>wayfinder-sdk.<tenant>.<agent>`): a reconnecting
   * agent resumes after what it had; with no committed offset it starts at the end of the topic.
   */
  groupId?: string;
  /** Anything else kafkajs takes (ssl, sasl, …). */
  kafka?: Record<string, unknown>;
}

const STEPS = TOPICS['wayfinder.steps.v1'].name;
const CORRECTIONS = TOPICS['wayfinder.corrections.v1'].name;
const TASKS = TOPICS['wayfinder.tasks.v1'].name;

export class KafkaTransport implements Transport {
  private kafka: Kafka | undefined;
  private producer: Promise<Producer> | undefined;
  private readonly consumers = new Set<Consumer>();

  constructor(private readonly options: KafkaTransportOptions) {}

  async publish(steps: readonly OutgoingStep[]): Promise<PublishOutcome> {
    const rejected: RejectedStep[] = [];
    const messages: Array<{ key: string; value: string }> = [];
    steps.forEach((raw, index) => {
      const checked = checkStep(raw, this.options.tenantId);
      if (!checked.ok) return void rejected.push({ index, error: checked.error, field: checked.field });
      if (checked.step.tenantId !== this.options.tenantId) {
        return void rejected.push({ index, error: `tenantId: this client publishes for tenant ${this.options.tenantId}`, field: 'tenantId' });
      }
      messages.push({ key: `${checked.step.tenantId}:${checked.step.agentId}`, value: JSON.stringify(checked.step) });
    });
    if (messages.length > 0) {
      const producer = await this.producerReady();
      await producer.send({ topic: this.topic(STEPS), messages, acks: -1 });
    }
    return { accepted: messages.length, rejected };
  }

  /** Publishes the task on the tasks topic (validated first); the task parser builds its map. */
  async postTask(task: OutgoingTask): Promise<undefined> {
    const parsed = TaskSpec.safeParse({ schema: 'wayfinder.task.v1', eventId: randomUUID(), ts: new Date().toISOString(), tenantId: this.options.tenantId, ...task });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`task ${task.taskId}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    if (parsed.data.tenantId !== this.options.tenantId) throw new Error(`task ${task.taskId}: tenantId: this client publishes for tenant ${this.options.tenantId}`);
    const producer = await this.producerReady();
    await producer.send({ topic: this.topic(TASKS), messages: [{ key: `${parsed.data.tenantId}:${parsed.data.taskId}`, value: JSON.stringify(parsed.data) }], acks: -1 });
    return undefined;
  }

  subscribe(request: SubscribeRequest): Subscription {
    const tenantId = this.options.tenantId;
    const state: { cursor: string | undefined } = { cursor: request.after };
    const groupId = this.options.groupId ?? `${this.options.topicPrefix ?? ''}wayfinder-sdk.${tenantId}.${request.agentId}`;
    const consumer = this.client().consumer({ groupId });
    this.consumers.add(consumer);
    const running = (async () => {
      await consumer.connect();
      await consumer.subscribe({ topic: this.topic(CORRECTIONS), fromBeginning: false });
      await consumer.run({
        eachMessage: async ({ partition, message }) => {
          if (message.value === null) return;
          const parsed = Correction.safeParse(safeJson(message.value.toString('utf8')));
          // Other agents' and other tenants' corrections share the topic: skip them; an unreadable one is reported.
          if (!parsed.success) return request.onTransportError?.(new Error(`unreadable correction at ${partition}:${message.offset}`));
          const correction = parsed.data;
          if (correction.tenantId !== tenantId || correction.agentId !== request.agentId) return;
          const cursor = `${partition}:${message.offset}`;
          await request.deliver({ correction, cursor });
          state.cursor = cursor;
        },
      });
    })().catch((error: Error) => request.onTransportError?.(error));
    return {
      get cursor() {
        return state.cursor;
      },
      close: async () => {
        await running;
        this.consumers.delete(consumer);
        await consumer.disconnect();
      },
    };
  }

  /** Corrections on Kafka need no acknowledgement: the consumer group's offsets record what was read. */
  async ack(_agentId: string, _correctionId: string, _outcome: AckOutcome): Promise<void> {
    // nothing to send
  }

  async close(): Promise<void> {
    for (const consumer of [...this.consumers]) await consumer.disconnect().catch(() => undefined);
    this.consumers.clear();
    if (this.producer) await (await this.producer).disconnect();
    this.producer = undefined;
  }

  private topic(name: string): string {
    return `${this.options.topicPrefix ?? ''}${name}`;
  }

  private kafkajs(): typeof import('kafkajs') {
    try {
      return require('kafkajs');
    } catch {
      throw new Error('the Kafka transport needs the kafkajs package: npm install kafkajs');
    }
  }

  private client(): Kafka {
    if (!this.kafka) {
      const kafkajs = this.kafkajs();
      this.kafka = new kafkajs.Kafka({
        clientId: this.options.clientId ?? 'wayfinder-sdk',
        brokers: this.options.brokers,
        logLevel: kafkajs.logLevel.WARN,
        ...this.options.kafka,
      });
    }
    return this.kafka;
  }

  private producerReady(): Promise<Producer> {
    if (!this.producer) {
      // The services' partitioner (libs/platform/bus): an agent's key lands on the same partition either way.
      const producer = this.client().producer({
        allowAutoTopicCreation: false,
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: this.kafkajs().Partitioners.DefaultPartitioner,
      });
      this.producer = producer.connect().then(() => producer);
      this.producer.catch(() => (this.producer = undefined));
    }
    return this.producer;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
