/**
 * Helpers for integration tests on the real Kafka broker that `deploy/local/infra-up.sh` starts (the
 * test runner brings it up before Jest). A missing broker FAILS the test with a message saying how to
 * start it: integration tests are never skipped silently.
 */
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';

/**
 * The Kafka client the broker tests run the bus on: WAYFINDER_KAFKA_CLIENT as the services read it
 * (@wayfinder/config), kafkajs when unset, so `WAYFINDER_KAFKA_CLIENT=platformatic npx jest …` runs the
 * same tests on PlatformaticBus (issue #17).
 */
export function kafkaClientUnderTest(env: NodeJS.ProcessEnv = process.env): 'kafkajs' | 'platformatic' {
  const client = env['WAYFINDER_KAFKA_CLIENT'] ?? 'kafkajs';
  if (client !== 'kafkajs' && client !== 'platformatic') throw new Error(`WAYFINDER_KAFKA_CLIENT must be kafkajs or platformatic, got '${client}'`);
  return client;
}

/** Brokers from WAYFINDER_KAFKA_BROKERS (comma-separated) or the local default 127.0.0.1:9092. */
export function kafkaBrokers(): string[] {
  const fromEnv = process.env['WAYFINDER_KAFKA_BROKERS'];
  const brokers = (fromEnv ?? '127.0.0.1:9092')
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b.length > 0);
  return brokers.length > 0 ? brokers : ['127.0.0.1:9092'];
}

/**
 * Resolves with the brokers once one answers a metadata request; rejects with an explanation after
 * `timeoutMs`. Call it in `beforeAll`, so every test of the file fails when there is no broker.
 */
export async function requireKafka(brokers: string[] = kafkaBrokers(), timeoutMs = 10_000): Promise<string[]> {
  const kafka = new Kafka({
    clientId: 'wayfinder-test-probe',
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 2_000,
    retry: { retries: 0 },
  });
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no attempt';
  while (Date.now() < deadline) {
    const admin = kafka.admin();
    try {
      await admin.connect();
      const cluster = await admin.describeCluster();
      if (cluster.brokers.length > 0) return brokers;
      lastError = 'the cluster lists no broker';
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `Kafka does not answer at ${brokers.join(',')} (${lastError}). Integration tests need a real broker: ` +
      'run `npm run infra:up` (or `npm test`, which starts it), or set WAYFINDER_KAFKA_BROKERS.',
  );
}

/** A name no earlier run used, for topics (`<name>.` as a topic prefix) and consumer groups. */
export function uniqueTestName(label: string): string {
  return `it-${label}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/**
 * Deletes the topics and consumer groups of one test run (names starting with `prefix`, as made by
 * uniqueTestName), so that reruns do not pile up topics on the local broker. Best effort: a failure
 * here must not fail the test that already passed.
 */
export async function deleteTestTopics(brokers: string[], prefix: string): Promise<void> {
  if (!prefix.startsWith('it-')) throw new Error(`deleteTestTopics only deletes test names (it-…), not "${prefix}"`);
  const admin = new Kafka({ clientId: 'wayfinder-test-cleanup', brokers, logLevel: logLevel.NOTHING }).admin();
  try {
    await admin.connect();
    const { groups } = await admin.listGroups();
    const groupIds = groups.map((g) => g.groupId).filter((id) => id.startsWith(prefix));
    if (groupIds.length > 0) await admin.deleteGroups(groupIds).catch(() => undefined);
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 10_000 });
  } catch {
    // Leftovers are harmless: every run uses new names.
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
