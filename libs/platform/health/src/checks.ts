/**
 * Ready-made readiness checks for what Wayfinder services wait for: a Kafka broker that answers a
 * metadata request, and a Redis that answers PING. Each takes the client it checks (or how to build
 * one), so this lib adds no connection of its own to a process that already has one.
 */
import { Kafka, logLevel, type KafkaConfig } from 'kafkajs';
import type { HealthCheck } from './health.server';

/** Kafka answers: a short-lived admin connection lists the cluster's brokers. */
export function kafkaCheck(brokers: readonly string[], clientId = 'wayfinder-health', security: Pick<KafkaConfig, 'ssl' | 'sasl'> = {}): HealthCheck {
  const kafka = new Kafka({ clientId, brokers: [...brokers], ...security, logLevel: logLevel.NOTHING, connectionTimeout: 1_000, retry: { retries: 0 } });
  return async () => {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const cluster = await admin.describeCluster();
      if (cluster.brokers.length === 0) throw new Error('the cluster reports no broker');
      return cluster.brokers.length;
    } finally {
      await admin.disconnect();
    }
  };
}

/** Redis answers PING (pass the ioredis client the service uses, or anything with `ping()`). */
export function redisCheck(redis: { ping(): Promise<string> }): HealthCheck {
  return async () => {
    const answer = await redis.ping();
    if (answer !== 'PONG') throw new Error(`PING answered ${answer}`);
    return answer;
  };
}
