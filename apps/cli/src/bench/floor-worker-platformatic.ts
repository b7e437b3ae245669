/**
 * The floor of `wayfinder bench floor --client platformatic` (issue #17): floor-worker.ts's pass-through
 * on @platformatic/kafka instead of kafkajs, so that the two clients are compared on the same work. The
 * same semantics: a consumer of the steps topic in batches (everything fetched and buffered so far, at
 * most MAX_BATCH messages), each message parsed and produced again to the second topic with the same
 * key and partitioner as kafkajs' DefaultPartitioner (murmur2, Java-compatible), one idempotent
 * producer (one request in flight, acks all), offsets committed after the produce (every second, as
 * kafkajs' autoCommitInterval does in the other worker). Batches are handled one at a time, so the order
 * per partition holds. FLOOR_SEND=per-partition sends each partition's messages in a request of its own
 * (as kafkajs' eachBatch does, one partition per batch) instead of one request per batch, to tell the
 * client's cost from the batching's.
 *
 * Environment and output: as floor-worker.ts (FLOOR_BROKERS, FLOOR_FROM, FLOOR_TO, FLOOR_GROUP,
 * FLOOR_EXPECT; `floor-ready`, then `floor-result {json}` on stderr).
 */
import { compatibilityPartitioner, Consumer, MessagesStreamFallbackModes, MessagesStreamModes, Producer, type Message } from '@platformatic/kafka';

/** About what kafkajs hands eachBatch from one fetch of four partitions with these messages. */
const MAX_BATCH = 1_024;
const COMMIT_INTERVAL_MS = 1_000;

async function main(): Promise<void> {
  const env = (name: string): string => {
    const value = process.env[name];
    if (!value) throw new Error(`floor worker: ${name} is not set`);
    return value;
  };
  const from = env('FLOOR_FROM');
  const to = env('FLOOR_TO');
  const expect = Number(env('FLOOR_EXPECT'));
  const perPartition = process.env['FLOOR_SEND'] === 'per-partition';
  const bootstrapBrokers = env('FLOOR_BROKERS').split(',');
  const producer = new Producer({ clientId: 'bench-floor', bootstrapBrokers, idempotent: true, autocreateTopics: false, partitioner: compatibilityPartitioner });
  const consumer = new Consumer({ clientId: 'bench-floor', groupId: env('FLOOR_GROUP'), bootstrapBrokers, autocommit: false, maxWaitTime: 500 });
  consumer.on('consumer:group:join', () => process.stderr.write('floor-ready\n'));
  const stream = await consumer.consume({ topics: [from], mode: MessagesStreamModes.COMMITTED, fallbackMode: MessagesStreamFallbackModes.EARLIEST, autocommit: false, maxWaitTime: 500 });
  stream.on('error', (error: Error) => {
    process.stderr.write(`floor worker: ${error.message}\n`);
    process.exit(1);
  });
  let stopping = false;
  const stop = async () => {
    stopping = true;
    await stream.close().catch(() => undefined);
    await consumer.close().catch(() => undefined);
    await producer.close().catch(() => undefined);
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());

  /** Next offset to commit per partition, handled (produced) but not committed yet. */
  const toCommit = new Map<number, bigint>();
  let committedAt = Date.now();
  let moved = 0;
  let firstAt: number | undefined;
  let cpuAtFirst: NodeJS.CpuUsage | undefined;
  let reported = false;
  // Paused mode: read() takes what the stream has buffered (it keeps fetching up to its high-water mark).
  stream.on('readable', () => undefined);
  while (!stopping) {
    const batch: Message[] = [];
    for (let m: Message | null; batch.length < MAX_BATCH && (m = stream.read() as Message | null) !== null; ) batch.push(m);
    if (batch.length === 0) {
      await new Promise<void>((resolve) => stream.once('readable', () => resolve()));
      continue;
    }
    if (firstAt === undefined) {
      firstAt = Date.now();
      cpuAtFirst = process.cpuUsage();
    }
    const messages = batch.map((m) => {
      const parsed = JSON.parse(m.value.toString('utf8')) as unknown;
      return { topic: to, key: m.key, value: Buffer.from(JSON.stringify(parsed), 'utf8') };
    });
    if (perPartition) {
      const byPartition = new Map<number, typeof messages>();
      batch.forEach((m, i) => {
        const list = byPartition.get(m.partition);
        if (list) list.push(messages[i]);
        else byPartition.set(m.partition, [messages[i]]);
      });
      for (const list of byPartition.values()) await producer.send({ messages: list, acks: -1 });
    } else {
      await producer.send({ messages, acks: -1 });
    }
    for (const m of batch) toCommit.set(m.partition, m.offset + 1n);
    if (Date.now() - committedAt >= COMMIT_INTERVAL_MS) {
      const offsets = [...toCommit].map(([partition, offset]) => ({ topic: from, partition, offset, leaderEpoch: -1 }));
      toCommit.clear();
      committedAt = Date.now();
      await consumer.commit({ offsets });
    }
    moved += messages.length;
    if (moved >= expect && !reported) {
      reported = true;
      const cpu = process.cpuUsage(cpuAtFirst);
      const result = { messages: moved, elapsedMs: Date.now() - firstAt, cpuMicros: cpu.user + cpu.system };
      process.stderr.write(`floor-result ${JSON.stringify(result)}\n`);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`floor worker: ${(error as Error).message ?? String(error)}\n`);
  process.exit(1);
});
