/**
 * Process configuration, read once at boot from the environment (and CLI flags layered on top) into
 * one typed object. Every bad variable is reported in a single error, so a misconfigured deployment
 * fails with the whole list instead of one variable per restart.
 */
import { z } from 'zod';

export const SERVICE_NAMES = ['task-parser', 'state-localizer', 'detector-worker', 'correction-engine', 'memory-service', 'history-recorder', 'escalation-notifier'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

const Brokers = z
  .string()
  .min(1)
  .transform((s) => s.split(',').map((b) => b.trim()).filter(Boolean))
  .refine((list) => list.every((b) => /^[^:\s]+:\d{1,5}$/.test(b)), 'must be a comma-separated list of host:port');

export const WayfinderConfig = z.object({
  mode: z.enum(['embedded', 'distributed']),
  services: z.array(z.enum(SERVICE_NAMES)).min(1),
  kafkaBrokers: Brokers,
  kafkaClientId: z.string().min(1),
  redisUrl: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL'),
  qdrantUrl: z.string().url().optional(),
  /** Health endpoints (/health/live, /health/ready); 0 picks a free port. */
  httpPort: z.coerce.number().int().min(0).max(65535),
  /** The memory service's HTTP API; 0 picks a free port. */
  memoryPort: z.coerce.number().int().min(0).max(65535),
  groupPrefix: z.string().min(1).max(64),
  /** Namespace prepended to topic names and group ids on the broker (environments sharing a cluster). */
  topicPrefix: z.string().max(64).regex(/^[A-Za-z0-9._-]*$/, 'may only use letters, digits, ".", "_" and "-"'),
  /** How long the group waits for a silent member before moving its partitions (failover time). */
  kafkaSessionTimeoutMs: z.coerce.number().int().min(6_000).max(300_000),
  profile: z.enum(['balanced', 'strict', 'lenient', 'openclaw']),
  /** Share of traces (by trace id) with per-event spans on every hop, and carried on between hops. */
  traceSampleRatio: z.coerce.number().min(0).max(1),
  /** Carry only sampled traces between hops (default), or every trace (a header on every message). */
  tracePropagation: z.enum(['sampled', 'all']),
});
export type WayfinderConfig = z.infer<typeof WayfinderConfig>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
  }
}

/** Environment variable (or flag) names, for error messages that name what the operator sets. */
const SOURCE_NAMES: Record<keyof WayfinderConfig, string> = {
  mode: 'WAYFINDER_MODE (--mode)',
  services: 'WAYFINDER_SERVICES (--services)',
  kafkaBrokers: 'WAYFINDER_KAFKA_BROKERS (--kafka)',
  kafkaClientId: 'WAYFINDER_KAFKA_CLIENT_ID',
  redisUrl: 'WAYFINDER_REDIS_URL (--redis)',
  qdrantUrl: 'WAYFINDER_QDRANT_URL (--qdrant)',
  httpPort: 'WAYFINDER_HTTP_PORT (--port)',
  memoryPort: 'WAYFINDER_MEMORY_PORT',
  groupPrefix: 'WAYFINDER_GROUP_PREFIX',
  topicPrefix: 'WAYFINDER_TOPIC_PREFIX',
  kafkaSessionTimeoutMs: 'WAYFINDER_KAFKA_SESSION_TIMEOUT_MS',
  profile: 'WAYFINDER_PROFILE',
  traceSampleRatio: 'WAYFINDER_TRACE_SAMPLE_RATIO',
  tracePropagation: 'WAYFINDER_TRACE_PROPAGATION',
};

export type ConfigOverrides = Partial<Record<'mode' | 'services' | 'kafka' | 'redis' | 'qdrant' | 'port', string>>;

/** Reads the configuration from `env` with `overrides` (CLI flags) winning; throws ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): WayfinderConfig {
  const raw = {
    mode: overrides.mode ?? env.WAYFINDER_MODE ?? 'embedded',
    services: (overrides.services ?? env.WAYFINDER_SERVICES ?? SERVICE_NAMES.join(','))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    kafkaBrokers: overrides.kafka ?? env.WAYFINDER_KAFKA_BROKERS ?? '127.0.0.1:9092',
    kafkaClientId: env.WAYFINDER_KAFKA_CLIENT_ID ?? 'wayfinder',
    redisUrl: overrides.redis ?? env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379',
    qdrantUrl: overrides.qdrant ?? env.WAYFINDER_QDRANT_URL ?? env.QDRANT_URL,
    httpPort: overrides.port ?? env.WAYFINDER_HTTP_PORT ?? '0',
    memoryPort: env.WAYFINDER_MEMORY_PORT ?? '0',
    groupPrefix: env.WAYFINDER_GROUP_PREFIX ?? 'wayfinder',
    topicPrefix: env.WAYFINDER_TOPIC_PREFIX ?? '',
    kafkaSessionTimeoutMs: env.WAYFINDER_KAFKA_SESSION_TIMEOUT_MS ?? '10000',
    profile: env.WAYFINDER_PROFILE ?? 'balanced',
    traceSampleRatio: env.WAYFINDER_TRACE_SAMPLE_RATIO ?? String(1 / 64),
    tracePropagation: env.WAYFINDER_TRACE_PROPAGATION ?? 'sampled',
  };
  const result = WayfinderConfig.safeParse(raw);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const key = issue.path[0] as keyof WayfinderConfig;
    return `${SOURCE_NAMES[key] ?? String(key)}: ${issue.message}`;
  });
  throw new ConfigError(problems);
}
