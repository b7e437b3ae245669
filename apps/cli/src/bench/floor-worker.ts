/**
 * The floor of `wayfinder bench floor` (issue #17), run in a child process of its own so that its CPU is
 * measured apart from the load generator's: a bare kafkajs consumer of the steps topic (batches, four
 * partitions at a time as the pipeline's consumers run) that parses every message and produces it again to
 * a second topic (one hop, idempotent producer, one request in flight, acks all), committing after the
 * produce. No schema, no state, no services: the least any Kafka stage in JavaScript does per message.
 *
 * Environment: FLOOR_BROKERS, FLOOR_FROM (topic), FLOOR_TO (topic), FLOOR_GROUP, FLOOR_EXPECT (messages).
 * Writes `floor-ready` once it joined, then one `floor-result {json}` line on stderr when FLOOR_EXPECT
 * messages went through: messages, elapsed ms and CPU µs from the first batch to the last.
 */
import { Kafka, logLevel, Partitioners } from 'kafkajs';

async function main(): Promise<void> {
  const env = (name: string): string => {
    const value = process.env[name];
    if (!value) throw new Error(`floor worker: ${name} is not set`);
    return value;
  };
  const from = env('FLOOR_FROM');
  const to = env('FLOOR_TO');
  const expect = Number(env('FLOOR_EXPECT'));
  const kafka = new Kafka({ clientId: 'bench-floor', brokers: env('FLOOR_BROKERS').split(','), logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
  const consumer = kafka.consumer({ groupId: env('FLOOR_GROUP'), allowAutoTopicCreation: false, maxWaitTimeInMs: 500 });
  await producer.connect();
  await consumer.connect();
  await consumer.subscribe({ topics: [from], fromBeginning: true });
  consumer.on(consumer.events.GROUP_JOIN, () => process.stderr.write('floor-ready\n'));
  let moved = 0;
  let firstAt: number | undefined;
  let cpuAtFirst: NodeJS.CpuUsage | undefined;
  let reported = false;
  await consumer.run({
    eachBatchAutoResolve: false,
    autoCommit: true,
    autoCommitInterval: 1_000,
    partitionsConsumedConcurrently: 4,
    eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary }) => {
      if (firstAt === undefined) {
        firstAt = Date.now();
        cpuAtFirst = process.cpuUsage();
      }
      const messages = batch.messages.map((m) => {
        const parsed = JSON.parse(m.value!.toString('utf8')) as unknown;
        return { key: m.key, value: Buffer.from(JSON.stringify(parsed), 'utf8') };
      });
      await producer.send({ topic: to, messages, acks: -1 });
      resolveOffset(batch.messages[batch.messages.length - 1].offset);
      await heartbeat();
      await commitOffsetsIfNecessary();
      moved += messages.length;
      if (moved >= expect && !reported) {
        reported = true;
        const cpu = process.cpuUsage(cpuAtFirst);
        const result = { messages: moved, elapsedMs: Date.now() - firstAt, cpuMicros: cpu.user + cpu.system };
        process.stderr.write(`floor-result ${JSON.stringify(result)}\n`);
      }
    },
  });
  const stop = async () => {
    await consumer.disconnect().catch(() => undefined);
    await producer.disconnect().catch(() => undefined);
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`floor worker: ${(error as Error).message ?? String(error)}\n`);
  process.exit(1);
});
