// Waits until a Kafka broker is ready to serve clients, not merely listening: it must answer a metadata
// request and list itself in the cluster. Used by infra-up.sh. Usage: node kafka-ready.mjs HOST:PORT [SECONDS]
import kafkajs from 'kafkajs';

const { Kafka, logLevel } = kafkajs;
const broker = process.argv[2] ?? '127.0.0.1:9092';
const timeoutMs = Number(process.argv[3] ?? 60) * 1000;
const deadline = Date.now() + timeoutMs;

const kafka = new Kafka({
  clientId: 'wayfinder-infra-ready',
  brokers: [broker],
  logLevel: logLevel.NOTHING,
  connectionTimeout: 2000,
  retry: { retries: 0 },
});

let lastError = 'no attempt';
while (Date.now() < deadline) {
  const admin = kafka.admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    await admin.listTopics();
    if (cluster.brokers.length > 0 && cluster.controller !== null && cluster.controller !== undefined) {
      await admin.disconnect();
      process.exit(0);
    }
    lastError = 'the cluster has no controller yet';
  } catch (error) {
    lastError = error instanceof Error ? error.message : String(error);
  }
  await admin.disconnect().catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 500));
}
console.error(`kafka-ready: ${broker} not ready after ${timeoutMs / 1000}s: ${lastError}`);
process.exit(1);
