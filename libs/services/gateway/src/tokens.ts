import type { EgressPolicy } from '@wayfinder/config';
import type { HealthCheck } from '@wayfinder/health';
import { DEFAULT_HISTORY_RETENTION_MAX_MS } from '@wayfinder/history';
import { DEFAULT_INGEST_LIMITS, type IngestLimits } from '@wayfinder/tenancy';

/** Injection tokens of the gateway: who holds keys, where corrections are kept, how long a long-poll waits. */
export const AUTHENTICATOR = Symbol('wayfinder.gateway.authenticator');
export const CORRECTION_LOG = Symbol('wayfinder.gateway.correction-log');
export const GATEWAY_OPTIONS = Symbol('wayfinder.gateway.options');
/** The seqs of the steps the hooks and the MCP door number themselves (StepSeqs: in Redis in distributed mode). */
export const STEP_SEQS = Symbol('wayfinder.gateway.step-seqs');
/** The operators' history store, when the operations module is mounted (a resume appends its ack there). */
export const GATEWAY_HISTORY = Symbol('wayfinder.gateway.history');
/** What `/health/ready` on the gateway's port checks (GatewayHealth). */
export const GATEWAY_HEALTH = Symbol('wayfinder.gateway.health');

/**
 * The readiness checks of the process the gateway runs in (the runtime's Kafka and Redis checks, the same
 * ones its health server runs), read at every request; none: ready while the gateway serves.
 */
export interface GatewayHealth {
  readonly checks: Readonly<Record<string, HealthCheck>>;
  /** Per check (default 2 s, as the health server). */
  readonly checkTimeoutMs?: number;
}

export interface GatewayOptions {
  /** Between two reads of the correction log while a client waits (another gateway instance may have written). */
  readonly pollMs: number;
  /** Interval of SSE `: keep-alive` comments. */
  readonly keepAliveMs: number;
  /** Largest request body accepted (bytes). */
  readonly maxBodyBytes: number;
  /** The LLM proxy's upstream for tenants whose policy names none (WAYFINDER_PROXY_UPSTREAM). */
  readonly proxyUpstream?: string;
  /**
   * The upstream of `POST /v1/messages` (Anthropic) for tenants whose policy names none
   * (WAYFINDER_ANTHROPIC_UPSTREAM, default https://api.anthropic.com): a base URL as the Anthropic SDK's,
   * the request going to `{base}/v1/messages`.
   */
  readonly anthropicUpstream: string;
  /** The LLM proxy's longest wait for the upstream, and between two chunks of a stream (ms). */
  readonly proxyTimeoutMs: number;
  /**
   * Largest non-streamed upstream answer the LLM proxy buffers (WAYFINDER_PROXY_MAX_RESPONSE_BYTES, default
   * 32 MiB): past it the client gets 502 in the OpenAI error shape. In a stream, the longest line (and the
   * most assembled text) kept for step derivation; the stream itself is passed through whole.
   */
  readonly proxyMaxResponseBytes: number;
  /** The operator's ceilings on a tenant's ingest limit (WAYFINDER_INGEST_MAX_EVENTS_PER_SECOND / _BURST): a tenant's policy cannot ask more. */
  readonly ingestCeiling: IngestLimits;
  /** The operator's bound on a tenant's history retention (WAYFINDER_HISTORY_RETENTION_MAX_MS): a policy's `historyRetentionMs` asking more is refused. */
  readonly historyRetentionMaxMs: number;
  /** Open correction streams (SSE and waiting long-polls) per tenant, and in all (WAYFINDER_MAX_STREAMS_PER_TENANT / WAYFINDER_MAX_STREAMS); past them → 429. */
  readonly maxStreamsPerTenant: number;
  readonly maxStreams: number;
  /**
   * The MCP servers of the MCP door (WAYFINDER_MCP_SERVERS): name → URL. Agents name a server in
   * `/v1/mcp/{name}`, never a URL.
   */
  readonly mcpServers?: Readonly<Record<string, string>>;
  /** The operator's egress (WAYFINDER_EGRESS_ALLOW / _ALLOW_PRIVATE): where a tenant's policy may send; `proxyUpstream`, `anthropicUpstream` and the MCP servers are always allowed. */
  readonly egress?: EgressPolicy;
}

/** The effective egress policy: the operator's list (none by default) plus the operator's own upstreams and MCP servers. */
export function gatewayEgress(options: GatewayOptions): EgressPolicy {
  const egress = options.egress ?? { allow: [], allowPrivate: false };
  const own = [options.proxyUpstream, options.anthropicUpstream, ...Object.values(options.mcpServers ?? {})].filter((u): u is string => u !== undefined && u !== '' && !egress.allow.includes(u));
  return own.length > 0 ? { ...egress, allow: [...egress.allow, ...own] } : egress;
}

export const DEFAULT_GATEWAY_OPTIONS: GatewayOptions = { pollMs: 500, keepAliveMs: 15_000, maxBodyBytes: 16 * 1024 * 1024, anthropicUpstream: 'https://api.anthropic.com', proxyTimeoutMs: 120_000, proxyMaxResponseBytes: 32 * 1024 * 1024, ingestCeiling: DEFAULT_INGEST_LIMITS, historyRetentionMaxMs: DEFAULT_HISTORY_RETENTION_MAX_MS, maxStreamsPerTenant: 200, maxStreams: 2_000 };
