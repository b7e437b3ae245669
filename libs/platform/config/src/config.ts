/**
 * Process configuration, read once at boot from the environment (and CLI flags layered on top) into
 * one typed object. Every bad variable is reported in a single error, so a misconfigured deployment
 * fails with the whole list instead of one variable per restart.
 */
import { z } from 'zod';
import { readMcpServers } from './mcp-servers';

export const SERVICE_NAMES = ['task-parser', 'navigator', 'state-localizer', 'detector-worker', 'correction-engine', 'memory-service', 'gateway', 'otlp-normalizer', 'history-recorder', 'escalation-notifier'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** The gateway's port when a user starts Wayfinder (`wayfinder start`, apps/gateway). */
export const GATEWAY_DEFAULT_PORT = 7070;

const Brokers = z
  .string()
  .min(1)
  .transform((s) => s.split(',').map((b) => b.trim()).filter(Boolean))
  .refine((list) => list.every((b) => /^[^:\s]+:\d{1,5}$/.test(b)), 'must be a comma-separated list of host:port');

export const WayfinderConfig = z.object({
  mode: z.enum(['embedded', 'distributed']),
  services: z.array(z.enum(SERVICE_NAMES)).min(1),
  /**
   * How navigation runs (DESIGN §3, issue #28): `one-pass` (default) runs the domain's per-agent Navigator
   * (localize → detect → correct) in the navigator service, one consumer of the steps topic with one state
   * document per agent; `separate` runs the three stage services (state-localizer → detector-worker →
   * correction-engine) with their topics as the edges. (`fused`, the stages chained in process through the
   * bus, was removed in issue #28: one-pass replaces it.) The navigation services asked for are mapped to
   * the pipeline's (runtime.ts `pipelineServices`).
   */
  pipeline: z.enum(['one-pass', 'separate']),
  /**
   * Whether the navigator publishes the localized steps on Kafka (`publish`, the default: an output for
   * whoever subscribes — tools, a history recorder or memory service in another process) or hands them only
   * to the readers in its process (`none`: one-pass only, and only when the history recorder and the memory
   * service run there; saves a full-volume produce per step). DESIGN §3, §14.
   */
  localizedOutput: z.enum(['publish', 'none']),
  kafkaBrokers: Brokers,
  kafkaClientId: z.string().min(1),
  /**
   * The Kafka client library under the Bus port (issue #17): kafkajs (default) or @platformatic/kafka
   * (PlatformaticBus, cheaper per message on the floor benchmark; BENCHMARKS.md #17).
   */
  kafkaClient: z.enum(['kafkajs', 'platformatic']),
  redisUrl: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL'),
  qdrantUrl: z.string().url().optional(),
  /** Health endpoints (/health/live, /health/ready); 0 picks a free port. */
  httpPort: z.coerce.number().int().min(0).max(65535),
  /** The memory service's HTTP API; 0 picks a free port. */
  memoryPort: z.coerce.number().int().min(0).max(65535),
  /** Address the memory API binds (0.0.0.0 in a container, to be reachable from outside it). */
  memoryHost: z.string().min(1).max(255),
  /**
   * The gateway's HTTP API (agents' door, DESIGN §12); 0 picks a free port. `wayfinder start` and
   * apps/gateway default it to GATEWAY_DEFAULT_PORT (7070); a bare loadConfig (tests, the demo) to 0.
   */
  gatewayPort: z.coerce.number().int().min(0).max(65535),
  /** Address the gateway binds; any non-loopback address requires a key on every request. */
  gatewayHost: z.string().min(1).max(255),
  /** PEM certificate (chain) and private key files: with both set the gateway serves HTTPS (issue #29). */
  gatewayTlsCert: z.string().min(1).optional(),
  gatewayTlsKey: z.string().min(1).optional(),
  /** The LLM proxy's upstream (an OpenAI-compatible base URL) for tenants whose policy names none. */
  proxyUpstream: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL')
    .optional(),
  /** The LLM proxy's upstream for Anthropic's Messages API (a base URL as the SDK's, `…/v1/messages` below it) for tenants whose policy names none. */
  anthropicUpstream: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL'),
  /** The MCP servers agents may reach through `/v1/mcp/{name}` (WAYFINDER_MCP_SERVERS, `name=url,…`; mcp-servers.ts). */
  mcpServers: z
    .string()
    .max(10_000)
    .transform((text, ctx) => {
      const read = readMcpServers(text);
      if (read.ok) return read.servers;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: read.error });
      return z.NEVER;
    }),
  /** Operator's egress allow-list (comma-separated hosts or base URLs) for tenants' upstreams and webhooks (egress.ts). */
  egressAllow: z.string().max(10_000),
  /** Whether tenants' upstreams and webhooks may reach loopback, link-local and private addresses. */
  egressAllowPrivate: z.enum(['', '0', '1', 'true', 'false']),
  /** The LLM proxy's longest wait for the upstream, and between two chunks of a stream (ms). */
  proxyTimeoutMs: z.coerce.number().int().min(100).max(600_000),
  /** Largest non-streamed upstream answer the LLM proxy buffers (bytes); past it → 502. Also bounds one line of a stream kept for step derivation. */
  proxyMaxResponseBytes: z.coerce.number().int().min(1024).max(1024 * 1024 * 1024),
  /** Operator's ceiling on a tenant's ingest rate (events/s): a policy asking more is refused (400). */
  ingestMaxEventsPerSecond: z.coerce.number().positive().max(1_000_000),
  /** Operator's ceiling on a tenant's ingest burst (events): a policy asking more is refused (400). */
  ingestMaxBurst: z.coerce.number().int().positive().max(10_000_000),
  /** Operator's bound on a tenant's history retention (ms): a policy's `historyRetentionMs` asking more is refused (400). */
  historyRetentionMaxMs: z.coerce.number().int().min(60_000).max(365 * 24 * 60 * 60 * 1000),
  /** Open correction streams (SSE and waiting long-polls) per tenant: past it → 429 with Retry-After. */
  maxStreamsPerTenant: z.coerce.number().int().min(1).max(1_000_000),
  /** Open correction streams in all, every tenant together. */
  maxStreams: z.coerce.number().int().min(1).max(1_000_000),
  /** What detection reads of one step (@wayfinder/detection step-bounds.ts; its defaults when unset). */
  detectionMaxArgNodes: z.coerce.number().int().min(1).max(1_000_000).optional(),
  detectionMaxArgDepth: z.coerce.number().int().min(1).max(64).optional(),
  detectionMaxArgChars: z.coerce.number().int().min(1).max(16 * 1024 * 1024).optional(),
  detectionMaxTextChars: z.coerce.number().int().min(1).max(16 * 1024 * 1024).optional(),
  detectionMaxOutputChars: z.coerce.number().int().min(1).max(16 * 1024 * 1024).optional(),
  /** `tenant:key,tenant:key` development/CI keys (checked by the gateway at boot). */
  apiKeys: z.string().optional(),
  /** Working directory of embedded mode's `.wayfinder/` (keys file). */
  workingDir: z.string().min(1),
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
  /**
   * Semantic embedders to load at boot (DESIGN §5.6) besides those the profile chooses, for tenant
   * policies that choose them; one whose model files are absent is reported once and served by hashing.
   */
  embedders: z.array(z.enum(['minilm', 'bge-zh'])),
  /** Per-agent state of the stream services: agents idle this long are evicted from memory (kept in Redis). */
  stateIdleTtlMs: z.coerce.number().int().min(1_000),
  /** At most this many agents in memory per stream service (least recently used evicted first). */
  stateMaxAgents: z.coerce.number().int().min(1),
  /** How long the state localizer holds a step whose task has no map yet. */
  localizerHoldMs: z.coerce.number().int().min(100).max(86_400_000),
  /** Kafka over TLS; CA, client certificate and key are PEM files (optional). */
  kafkaSsl: z.enum(['true', 'false']).transform((v) => v === 'true'),
  kafkaSslCa: z.string().min(1).optional(),
  kafkaSslCert: z.string().min(1).optional(),
  kafkaSslKey: z.string().min(1).optional(),
  kafkaSslRejectUnauthorized: z.enum(['true', 'false']).transform((v) => v === 'true'),
  /** SASL authentication to Kafka; needs the username and password. */
  kafkaSaslMechanism: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional(),
  kafkaSaslUsername: z.string().min(1).optional(),
  kafkaSaslPassword: z.string().min(1).optional(),
  /** Qdrant's API key (sent with every request to WAYFINDER_QDRANT_URL). */
  qdrantApiKey: z.string().min(1).optional(),
  /** The memory API's keys: a JSON object from key to the tenant it opens (every request needs one). */
  memoryApiKeys: z
    .string()
    .transform((s, ctx) => {
      try {
        const parsed = JSON.parse(s) as unknown;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && Object.values(parsed).every((t) => typeof t === 'string' && t.length > 0)) {
          return parsed as Record<string, string>;
        }
      } catch {
        // reported below
      }
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a JSON object from API key to tenant id, e.g. {"key-1":"acme"}' });
      return z.NEVER;
    })
    .optional(),
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
  pipeline: 'WAYFINDER_PIPELINE',
  localizedOutput: 'WAYFINDER_LOCALIZED_OUTPUT',
  kafkaBrokers: 'WAYFINDER_KAFKA_BROKERS (--kafka)',
  kafkaClientId: 'WAYFINDER_KAFKA_CLIENT_ID',
  kafkaClient: 'WAYFINDER_KAFKA_CLIENT',
  redisUrl: 'WAYFINDER_REDIS_URL (--redis)',
  qdrantUrl: 'WAYFINDER_QDRANT_URL (--qdrant)',
  httpPort: 'WAYFINDER_HTTP_PORT (--health-port)',
  memoryPort: 'WAYFINDER_MEMORY_PORT',
  memoryHost: 'WAYFINDER_MEMORY_HOST',
  gatewayPort: 'WAYFINDER_GATEWAY_PORT (--port)',
  gatewayHost: 'WAYFINDER_GATEWAY_HOST (--host)',
  gatewayTlsCert: 'WAYFINDER_GATEWAY_TLS_CERT (--tls-cert)',
  gatewayTlsKey: 'WAYFINDER_GATEWAY_TLS_KEY (--tls-key)',
  proxyUpstream: 'WAYFINDER_PROXY_UPSTREAM',
  anthropicUpstream: 'WAYFINDER_ANTHROPIC_UPSTREAM',
  mcpServers: 'WAYFINDER_MCP_SERVERS',
  egressAllow: 'WAYFINDER_EGRESS_ALLOW',
  egressAllowPrivate: 'WAYFINDER_EGRESS_ALLOW_PRIVATE',
  proxyTimeoutMs: 'WAYFINDER_PROXY_TIMEOUT_MS',
  proxyMaxResponseBytes: 'WAYFINDER_PROXY_MAX_RESPONSE_BYTES',
  ingestMaxEventsPerSecond: 'WAYFINDER_INGEST_MAX_EVENTS_PER_SECOND',
  ingestMaxBurst: 'WAYFINDER_INGEST_MAX_BURST',
  historyRetentionMaxMs: 'WAYFINDER_HISTORY_RETENTION_MAX_MS',
  maxStreamsPerTenant: 'WAYFINDER_MAX_STREAMS_PER_TENANT',
  maxStreams: 'WAYFINDER_MAX_STREAMS',
  detectionMaxArgNodes: 'WAYFINDER_DETECTION_MAX_ARG_NODES',
  detectionMaxArgDepth: 'WAYFINDER_DETECTION_MAX_ARG_DEPTH',
  detectionMaxArgChars: 'WAYFINDER_DETECTION_MAX_ARG_CHARS',
  detectionMaxTextChars: 'WAYFINDER_DETECTION_MAX_TEXT_CHARS',
  detectionMaxOutputChars: 'WAYFINDER_DETECTION_MAX_OUTPUT_CHARS',
  apiKeys: 'WAYFINDER_API_KEYS',
  workingDir: 'working directory',
  groupPrefix: 'WAYFINDER_GROUP_PREFIX',
  topicPrefix: 'WAYFINDER_TOPIC_PREFIX',
  kafkaSessionTimeoutMs: 'WAYFINDER_KAFKA_SESSION_TIMEOUT_MS',
  profile: 'WAYFINDER_PROFILE',
  traceSampleRatio: 'WAYFINDER_TRACE_SAMPLE_RATIO',
  tracePropagation: 'WAYFINDER_TRACE_PROPAGATION',
  embedders: 'WAYFINDER_EMBEDDERS',
  stateIdleTtlMs: 'WAYFINDER_STATE_IDLE_TTL_MS',
  stateMaxAgents: 'WAYFINDER_STATE_MAX_AGENTS',
  localizerHoldMs: 'WAYFINDER_LOCALIZER_HOLD_MS',
  kafkaSsl: 'WAYFINDER_KAFKA_SSL',
  kafkaSslCa: 'WAYFINDER_KAFKA_SSL_CA',
  kafkaSslCert: 'WAYFINDER_KAFKA_SSL_CERT',
  kafkaSslKey: 'WAYFINDER_KAFKA_SSL_KEY',
  kafkaSslRejectUnauthorized: 'WAYFINDER_KAFKA_SSL_REJECT_UNAUTHORIZED',
  kafkaSaslMechanism: 'WAYFINDER_KAFKA_SASL_MECHANISM',
  kafkaSaslUsername: 'WAYFINDER_KAFKA_SASL_USERNAME',
  kafkaSaslPassword: 'WAYFINDER_KAFKA_SASL_PASSWORD',
  qdrantApiKey: 'WAYFINDER_QDRANT_API_KEY',
  memoryApiKeys: 'WAYFINDER_MEMORY_API_KEYS',
};

export type ConfigOverrides = Partial<Record<'mode' | 'services' | 'kafka' | 'redis' | 'qdrant' | 'port' | 'host' | 'health-port' | 'tls-cert' | 'tls-key', string>>;

/** Reads the configuration from `env` with `overrides` (CLI flags) winning; throws ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): WayfinderConfig {
  const raw = {
    mode: overrides.mode ?? env.WAYFINDER_MODE ?? 'embedded',
    services: (overrides.services ?? env.WAYFINDER_SERVICES ?? SERVICE_NAMES.join(','))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    pipeline: env.WAYFINDER_PIPELINE ?? 'one-pass',
    localizedOutput: env.WAYFINDER_LOCALIZED_OUTPUT ?? 'publish',
    kafkaBrokers: overrides.kafka ?? env.WAYFINDER_KAFKA_BROKERS ?? '127.0.0.1:9092',
    kafkaClientId: env.WAYFINDER_KAFKA_CLIENT_ID ?? 'wayfinder',
    kafkaClient: env.WAYFINDER_KAFKA_CLIENT ?? 'kafkajs',
    redisUrl: overrides.redis ?? env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379',
    qdrantUrl: overrides.qdrant ?? env.WAYFINDER_QDRANT_URL ?? env.QDRANT_URL,
    httpPort: overrides['health-port'] ?? env.WAYFINDER_HTTP_PORT ?? '0',
    memoryPort: env.WAYFINDER_MEMORY_PORT ?? '0',
    memoryHost: env.WAYFINDER_MEMORY_HOST ?? '127.0.0.1',
    gatewayPort: overrides.port ?? env.WAYFINDER_GATEWAY_PORT ?? '0',
    gatewayHost: overrides.host ?? env.WAYFINDER_GATEWAY_HOST ?? '127.0.0.1',
    gatewayTlsCert: overrides['tls-cert'] ?? (env.WAYFINDER_GATEWAY_TLS_CERT || undefined),
    gatewayTlsKey: overrides['tls-key'] ?? (env.WAYFINDER_GATEWAY_TLS_KEY || undefined),
    proxyUpstream: env.WAYFINDER_PROXY_UPSTREAM || undefined,
    anthropicUpstream: env.WAYFINDER_ANTHROPIC_UPSTREAM || 'https://api.anthropic.com',
    mcpServers: env.WAYFINDER_MCP_SERVERS ?? '',
    egressAllow: env.WAYFINDER_EGRESS_ALLOW ?? '',
    egressAllowPrivate: (env.WAYFINDER_EGRESS_ALLOW_PRIVATE ?? '').trim().toLowerCase(),
    proxyTimeoutMs: env.WAYFINDER_PROXY_TIMEOUT_MS ?? '120000',
    proxyMaxResponseBytes: env.WAYFINDER_PROXY_MAX_RESPONSE_BYTES ?? String(32 * 1024 * 1024),
    ingestMaxEventsPerSecond: env.WAYFINDER_INGEST_MAX_EVENTS_PER_SECOND ?? '2000',
    ingestMaxBurst: env.WAYFINDER_INGEST_MAX_BURST ?? '10000',
    historyRetentionMaxMs: env.WAYFINDER_HISTORY_RETENTION_MAX_MS ?? String(30 * 24 * 60 * 60 * 1000),
    maxStreamsPerTenant: env.WAYFINDER_MAX_STREAMS_PER_TENANT ?? '200',
    maxStreams: env.WAYFINDER_MAX_STREAMS ?? '2000',
    detectionMaxArgNodes: env.WAYFINDER_DETECTION_MAX_ARG_NODES || undefined,
    detectionMaxArgDepth: env.WAYFINDER_DETECTION_MAX_ARG_DEPTH || undefined,
    detectionMaxArgChars: env.WAYFINDER_DETECTION_MAX_ARG_CHARS || undefined,
    detectionMaxTextChars: env.WAYFINDER_DETECTION_MAX_TEXT_CHARS || undefined,
    detectionMaxOutputChars: env.WAYFINDER_DETECTION_MAX_OUTPUT_CHARS || undefined,
    apiKeys: env.WAYFINDER_API_KEYS,
    workingDir: process.cwd(),
    groupPrefix: env.WAYFINDER_GROUP_PREFIX ?? 'wayfinder',
    topicPrefix: env.WAYFINDER_TOPIC_PREFIX ?? '',
    kafkaSessionTimeoutMs: env.WAYFINDER_KAFKA_SESSION_TIMEOUT_MS ?? '10000',
    profile: env.WAYFINDER_PROFILE ?? 'balanced',
    traceSampleRatio: env.WAYFINDER_TRACE_SAMPLE_RATIO ?? String(1 / 64),
    tracePropagation: env.WAYFINDER_TRACE_PROPAGATION ?? 'sampled',
    embedders: (env.WAYFINDER_EMBEDDERS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    stateIdleTtlMs: env.WAYFINDER_STATE_IDLE_TTL_MS ?? String(15 * 60_000),
    stateMaxAgents: env.WAYFINDER_STATE_MAX_AGENTS ?? '200000',
    localizerHoldMs: env.WAYFINDER_LOCALIZER_HOLD_MS ?? '5000',
    kafkaSsl: env.WAYFINDER_KAFKA_SSL ?? 'false',
    kafkaSslCa: env.WAYFINDER_KAFKA_SSL_CA,
    kafkaSslCert: env.WAYFINDER_KAFKA_SSL_CERT,
    kafkaSslKey: env.WAYFINDER_KAFKA_SSL_KEY,
    kafkaSslRejectUnauthorized: env.WAYFINDER_KAFKA_SSL_REJECT_UNAUTHORIZED ?? 'true',
    kafkaSaslMechanism: env.WAYFINDER_KAFKA_SASL_MECHANISM?.toLowerCase(),
    kafkaSaslUsername: env.WAYFINDER_KAFKA_SASL_USERNAME,
    kafkaSaslPassword: env.WAYFINDER_KAFKA_SASL_PASSWORD,
    qdrantApiKey: env.WAYFINDER_QDRANT_API_KEY ?? env.QDRANT_API_KEY,
    memoryApiKeys: env.WAYFINDER_MEMORY_API_KEYS,
  };
  const result = WayfinderConfig.safeParse(raw);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => {
        const key = issue.path[0] as keyof WayfinderConfig;
        return `${SOURCE_NAMES[key] ?? String(key)}: ${issue.message}`;
      });
  if (result.success && result.data.kafkaSaslMechanism && (!result.data.kafkaSaslUsername || !result.data.kafkaSaslPassword)) {
    problems.push(`${SOURCE_NAMES.kafkaSaslMechanism}: needs ${SOURCE_NAMES.kafkaSaslUsername} and ${SOURCE_NAMES.kafkaSaslPassword}`);
  }
  if (result.success && !result.data.gatewayTlsCert !== !result.data.gatewayTlsKey) {
    problems.push(`${SOURCE_NAMES.gatewayTlsCert} and ${SOURCE_NAMES.gatewayTlsKey}: set both or neither`);
  }
  if (result.success && problems.length === 0) return result.data;
  throw new ConfigError(problems);
}
