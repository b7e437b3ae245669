/**
 * Starts a set of Wayfinder services in this process (DESIGN §3 "Co-location and the embedded default"):
 * - embedded: every service on the in-process bus with in-memory stores — no server needed;
 * - distributed: the chosen services on Kafka with Redis, one consumer group per service.
 * The same Nest modules run in both; only the bus and the stores differ. Nothing consumes until the
 * dependencies answer (readiness gate), and stop() finishes in-flight batches and commits them.
 * Every bus is traced (trace context in message headers), dead letters are counted, and in distributed
 * mode consumer lag is measured and /health/live and /health/ready are served.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { readFileSync } from 'node:fs';
import { Module, type DynamicModule, type INestMicroservice, type LoggerService, type Provider, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import Redis from 'ioredis';
import { TOPIC_NAMES, TOPICS, type TopicName } from '@wayfinder/contracts';
import { BusTransport, HandlerErrorFilter, InProcessBus, SettlingBus, createKafkaBus, type Bus, type InProcessBroker, type RetryPolicy } from '@wayfinder/bus';
import { egressFromEnv, kafkaSecurity, type ServiceName, type WayfinderConfig } from '@wayfinder/config';
import { DEFAULT_STEP_BOUNDS, embedderChoices, PROFILES, type StepBounds } from '@wayfinder/detection';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { createEmbeddingCache } from '@wayfinder/onnx-embedders';
import { kafkaCheck, redisCheck, startHealthServer, type HealthCheck, type HealthServer } from '@wayfinder/health';
import { DEFAULT_HISTORY_LIMITS, InMemoryHistoryStore, retentionOfTenant, type HistoryRetention, type HistoryStore } from '@wayfinder/history';
import { RedisAgentStateStore, RedisDeliveryLog, RedisDetectorStateStore, RedisHeldSteps, RedisHistoryStore, RedisMapStore, RedisPendingDeliveries } from '@wayfinder/redis';
import { CorrectionEngineModule, CorrectionHandler } from '@wayfinder/service-correction-engine';
import type { CorrectionEngine } from '@wayfinder/correction';
import { AGENT_STATE_STORES, DELEGATION_GRAPH_STORE, DETECTION_STEP_BOUNDS, InMemoryMapStore, PoliciesHandler, PolicyBook, STATE_SETTINGS, WayfinderCoreModule, type AgentStateStores, type MapStore, type StateSettings } from '@wayfinder/service-core';
import { DETECTOR_STATE_STORE, DetectorWorkerModule } from '@wayfinder/service-detector-worker';
import { memoryStores, startMemoryService, type RunningMemoryService } from '@wayfinder/service-memory';
import { authenticatorFor, correctionLogFor, keyStoreFor, startGatewayService, stepSeqsFor, type RunningGateway } from '@wayfinder/service-gateway';
import {
  DELIVERY_LOG,
  EscalationNotifierModule,
  HISTORY_STORE,
  HistoryRecorderModule,
  InMemoryDeliveryLog,
  PENDING_DELIVERIES,
  WEBHOOK_EGRESS,
  WEBHOOK_LANES,
  WEBHOOK_TIMEOUT_MS,
} from '@wayfinder/service-operations';
import { HELD_STEP_STORE, StateLocalizerModule } from '@wayfinder/service-state-localizer';
import { NavigationHandler, NavigatorModule } from '@wayfinder/service-navigator';
import { startOtlpNormalizer } from '@wayfinder/service-otlp-normalizer';
import { TaskParserModule } from '@wayfinder/service-task-parser';
import { KafkaLagMonitor, TracedBus, monitorDeadLetters, navigationMetrics } from '@wayfinder/telemetry';
import { CoLocatedBus, CoLocatedReaders } from './co-located-readers';
import { dependencyGate } from './dependency-gate';

/** Services with an HTTP app of their own (started apart); the others are bus-only Nest apps. */
type HttpService = 'memory-service' | 'gateway';
/** Services that are not Nest apps: the otlp-normalizer is a plain consumer of the raw OTLP topic. */
type PlainService = 'otlp-normalizer';
type StreamService = Exclude<ServiceName, HttpService | PlainService>;

/** The consumer group of a service: the same whether it runs alone or co-located with others. */
export function serviceGroupId(config: Pick<WayfinderConfig, 'groupPrefix'>, service: ServiceName): string {
  return `${config.groupPrefix}.${service}`;
}

const SERVICE_MODULES: Record<StreamService, Type<unknown>> = {
  'task-parser': TaskParserModule,
  navigator: NavigatorModule,
  'state-localizer': StateLocalizerModule,
  'detector-worker': DetectorWorkerModule,
  'correction-engine': CorrectionEngineModule,
  'history-recorder': HistoryRecorderModule,
  'escalation-notifier': EscalationNotifierModule,
};

/** The topics each service consumes (for lag measurement). */
const CONSUMED: Record<StreamService, string[]> = {
  'task-parser': ['wayfinder.tasks.v1', 'wayfinder.anchor-changes.v1', 'wayfinder.policies.v1'],
  navigator: ['wayfinder.steps.v1', 'wayfinder.maps.v1', 'wayfinder.policies.v1', 'wayfinder.controls.v1', 'wayfinder.suppressions.v1', 'wayfinder.deviations.v1', 'wayfinder.delegations.v1'],
  'state-localizer': ['wayfinder.steps.v1', 'wayfinder.maps.v1'],
  'detector-worker': ['wayfinder.localized.v1', 'wayfinder.maps.v1', 'wayfinder.policies.v1', 'wayfinder.delegations.v1', 'wayfinder.suppressions.v1'],
  'correction-engine': ['wayfinder.detected.v1', 'wayfinder.deviations.v1', 'wayfinder.controls.v1', 'wayfinder.maps.v1', 'wayfinder.policies.v1'],
  'history-recorder': ['wayfinder.localized.v1', 'wayfinder.deviations.v1', 'wayfinder.corrections.v1', 'wayfinder.escalations.v1', 'wayfinder.would-send.v1'],
  'escalation-notifier': ['wayfinder.escalations.v1', 'wayfinder.policies.v1'],
};

/**
 * The notifier retries a failed webhook post with exponential backoff (about 1 min in all) in its tenant's
 * lane, then dead-letters the escalation with the reason; its own bus (same policy, for anything else that
 * fails its batch) never shares a retry loop with the pipeline.
 */
export const NOTIFIER_RETRY: RetryPolicy = { maxAttempts: 6, initialBackoffMs: 1_000, maxBackoffMs: 30_000 };

/** The stage services the one-pass navigator replaces (issue #28). */
const STAGE_SERVICES: readonly ServiceName[] = ['state-localizer', 'detector-worker', 'correction-engine'];

/**
 * The services a process runs for its pipeline: with `one-pass`, the navigator in place of any of the
 * three stage services asked for; with `separate`, the three stage services in place of the navigator.
 * Other services are kept as asked.
 */
export function pipelineServices(config: Pick<WayfinderConfig, 'pipeline' | 'services'>): ServiceName[] {
  const asked = new Set(config.services);
  const navigation = asked.has('navigator') || STAGE_SERVICES.some((s) => asked.has(s));
  if (config.pipeline === 'one-pass') {
    for (const s of STAGE_SERVICES) asked.delete(s);
    if (navigation) asked.add('navigator');
  } else if (asked.delete('navigator')) {
    for (const s of STAGE_SERVICES) asked.add(s);
  }
  return [...asked];
}

/**
 * The broker the embedded gateway and otlp-normalizer share with the pipeline: the in-process bus's, or
 * the one inside a SettlingBus (a simulated fleet driven in lockstep, to which agents may also post).
 */
/** The operator's WAYFINDER_DETECTION_MAX_* over the detection engine's defaults (what detection reads of one step). */
export function stepBoundsOf(config: Pick<WayfinderConfig, 'detectionMaxArgNodes' | 'detectionMaxArgDepth' | 'detectionMaxArgChars' | 'detectionMaxTextChars' | 'detectionMaxOutputChars'>): StepBounds {
  return {
    maxArgNodes: config.detectionMaxArgNodes ?? DEFAULT_STEP_BOUNDS.maxArgNodes,
    maxArgDepth: config.detectionMaxArgDepth ?? DEFAULT_STEP_BOUNDS.maxArgDepth,
    maxArgChars: config.detectionMaxArgChars ?? DEFAULT_STEP_BOUNDS.maxArgChars,
    maxTextChars: config.detectionMaxTextChars ?? DEFAULT_STEP_BOUNDS.maxTextChars,
    maxOutputChars: config.detectionMaxOutputChars ?? DEFAULT_STEP_BOUNDS.maxOutputChars,
  };
}

function doorBroker(bus: Bus): InProcessBroker | undefined {
  return bus instanceof InProcessBus ? bus.broker : bus instanceof SettlingBus ? bus.innerBroker : undefined;
}

/**
 * The per-agent outputs of each service: their producer lanes connect when the bus starts (KafkaBusOptions
 * .publishes), so an agent's first step → correction chain does not wait for a producer connect per hop.
 * Other topics get their lane at their first publish.
 */
const HOT_OUTPUTS: Partial<Record<ServiceName, TopicName[]>> = {
  gateway: ['wayfinder.steps.v1'],
  navigator: ['wayfinder.corrections.v1', 'wayfinder.escalations.v1', 'wayfinder.deviations.v1', 'wayfinder.localized.v1', 'wayfinder.delegations.v1'],
  'state-localizer': ['wayfinder.localized.v1'],
  'detector-worker': ['wayfinder.deviations.v1', 'wayfinder.detected.v1'],
  'correction-engine': ['wayfinder.corrections.v1', 'wayfinder.escalations.v1'],
};

/** The topics whose producers a process's bus connects at start (see HOT_OUTPUTS). */
export function hotOutputsOf(config: Pick<WayfinderConfig, 'services' | 'localizedOutput'>): TopicName[] {
  const topics = new Set(config.services.flatMap((s) => HOT_OUTPUTS[s] ?? []));
  if (config.localizedOutput === 'none') topics.delete('wayfinder.localized.v1');
  return [...topics];
}

/**
 * The readers of the navigator's localized steps that read them in process when they run beside it
 * (one-pass; co-located-readers.ts): they record what they read (history, trails) and publish nothing the
 * navigator reads. Their other topics (deviations, corrections, ...: a few per hundred steps) stay on the bus.
 */
const LOCALIZED_READERS: ServiceName[] = ['history-recorder', 'memory-service'];

/** The co-located readers of localized steps in this process: none unless the navigator runs here (one-pass). */
export function coLocatedReadersOf(config: Pick<WayfinderConfig, 'pipeline' | 'services'>): ServiceName[] {
  if (config.pipeline !== 'one-pass' || !config.services.includes('navigator')) return [];
  return LOCALIZED_READERS.filter((s) => config.services.includes(s));
}

/**
 * Whether localized steps stay in this process (WAYFINDER_LOCALIZED_OUTPUT=none). Throws, naming what is
 * missing, when `none` is asked for a process that does not run the navigator and every reader of localized
 * steps (the absent ones would never see a step).
 */
export function localizedStaysLocal(config: Pick<WayfinderConfig, 'pipeline' | 'services' | 'localizedOutput'>): boolean {
  if (config.localizedOutput !== 'none') return false;
  const missing = (['navigator', ...LOCALIZED_READERS] as ServiceName[]).filter((s) => !config.services.includes(s));
  if (config.pipeline !== 'one-pass' || missing.length > 0) {
    throw new Error(
      `WAYFINDER_LOCALIZED_OUTPUT=none needs the one-pass pipeline (WAYFINDER_PIPELINE, now ${config.pipeline}) with the navigator and every reader of localized steps in this process` +
        (missing.length > 0 ? ` (missing: ${missing.join(', ')})` : ''),
    );
  }
  return true;
}

/** Partitions the navigator's steps consumer handles at once (4 per stage consumer of the separate services). */
const NAVIGATOR_PARTITIONS_IN_FLIGHT = 16;

/** Services that resolve policies and so must follow the policies topic. */
const POLICY_READERS: ServiceName[] = ['navigator', 'detector-worker', 'correction-engine', 'task-parser', 'escalation-notifier'];

@Module({ controllers: [PoliciesHandler] })
class PoliciesModule {}

export interface RunningServices {
  readonly bus: Bus;
  /** One Nest app per stream service, in the order of `services` (none when only the memory service runs). */
  readonly apps: readonly INestMicroservice[];
  /** A controller or provider of whichever service app has it (tests, the demo). */
  get<T>(type: Type<T>): T;
  /** The correction ladder's engine of whichever pipeline runs here (the navigator's, or the correction-engine service's). */
  correctionEngine(): CorrectionEngine;
  readonly mapStore: MapStore;
  readonly policyBook: PolicyBook;
  /** The operators' history (Redis in distributed mode, in memory embedded), filled by the history recorder. */
  readonly history: HistoryStore;
  readonly memory?: RunningMemoryService;
  /** The agents' HTTP door, when `gateway` is one of the services. */
  readonly gateway?: RunningGateway;
  /** True when the gateway needs no key (embedded, loopback, no keys configured) at start. */
  readonly gatewayLocalMode?: boolean;
  readonly health?: HealthServer;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Use this bus instead of building one from the configuration (tests, the demo). */
  bus?: Bus;
  logger?: LoggerService | false;
  /** Told when the bus can no longer consume (a consumer crashed for good): the caller stops the process. */
  onFatal?: (error: Error) => void;
  /** The escalation notifier's retry policy (default NOTIFIER_RETRY; tests shorten it). */
  notifierRetry?: Partial<RetryPolicy>;
  /** Timeout of one webhook post (default 10 s). */
  webhookTimeoutMs?: number;
}

export async function startServices(config: WayfinderConfig, options: StartOptions = {}): Promise<RunningServices> {
  const closers: Array<() => Promise<unknown>> = [];
  const stopAll = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  };
  try {
    return await start(config, options, closers, stopAll);
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function start(
  config: WayfinderConfig,
  options: StartOptions,
  closers: Array<() => Promise<unknown>>,
  stopAll: () => Promise<void>,
): Promise<RunningServices> {
  config = { ...config, services: pipelineServices(config) };
  const embedder = new HashingEmbedder();
  // The semantic embedders the profile chooses per detector, plus WAYFINDER_EMBEDDERS (DESIGN §5.6).
  const vectors = await createEmbeddingCache([...embedderChoices(PROFILES[config.profile]), ...config.embedders], { hashing: embedder });
  const services = [...new Set(config.services)].sort();
  const streamServices = services.filter((s): s is StreamService => s !== 'memory-service' && s !== 'gateway' && s !== 'otlp-normalizer');
  let redis: Redis | undefined;
  let mapStore: MapStore;
  let rawBus: Bus;
  // Back-pressure on an outage: a handler failing while Redis (or the memory service's Qdrant) does not
  // answer pauses its partition (heartbeating, nothing committed or dead-lettered) until it answers again (DESIGN §7).
  const dependencies: Record<string, HealthCheck> = {};
  const gate = dependencyGate(dependencies, (line) => process.stderr.write(`${line}\n`));
  const security = config.mode === 'distributed' ? kafkaSecurity(config) : {};
  const coLocated = coLocatedReadersOf(config);
  const makeBus = (clientSuffix: string): Bus =>
    // kafkajs unless WAYFINDER_KAFKA_CLIENT=platformatic (issue #17).
    createKafkaBus(config.kafkaClient, {
      security,
      gate,
      onFatal: options.onFatal,
      brokers: config.kafkaBrokers,
      clientId: `${config.kafkaClientId}-${clientSuffix}`,
      topicPrefix: config.topicPrefix,
      sessionTimeoutMs: config.kafkaSessionTimeoutMs,
      heartbeatIntervalMs: Math.min(3_000, Math.floor(config.kafkaSessionTimeoutMs / 5)),
      // Partitions are independent (order is per agent, within one partition): several in flight at once
      // keep the process busy while one batch waits on the broker or Redis. One-pass, one consumer carries
      // every stage's round trips, so it keeps as many in flight as the separate stages' consumers did together.
      partitionsConsumedConcurrently: config.pipeline === 'one-pass' ? NAVIGATOR_PARTITIONS_IN_FLIGHT : 4,
      publishes: clientSuffix === 'services' ? hotOutputsOf(config) : [],
    });
  const stateSettings: StateSettings = { idleTtlMs: config.stateIdleTtlMs, maxAgents: config.stateMaxAgents, holdMs: config.localizerHoldMs, groupIdOf: (service) => serviceGroupId(config, service as ServiceName) };
  const extraProviders: Provider[] = [{ provide: STATE_SETTINGS, useValue: stateSettings }, { provide: DETECTION_STEP_BOUNDS, useValue: stepBoundsOf(config) }];
  const checks: Record<string, HealthCheck> = {};
  const policyBook = new PolicyBook(config.profile);
  // Each tenant's history is kept for its policy's retention, within the operator's maximum.
  const retention: HistoryRetention = { defaultMs: Math.min(DEFAULT_HISTORY_LIMITS.retentionMs, config.historyRetentionMaxMs), maxMs: config.historyRetentionMaxMs };
  const retentionOf = (tenantId: string): number => retentionOfTenant(retention, policyBook.tenant(tenantId)?.historyRetentionMs);
  let history: HistoryStore;
  if (config.mode === 'embedded') {
    rawBus = options.bus ?? new InProcessBus();
    mapStore = new InMemoryMapStore();
    history = new InMemoryHistoryStore({ retentionOf });
    extraProviders.push({ provide: DELIVERY_LOG, useValue: new InMemoryDeliveryLog() });
  } else {
    redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
    const connection = redis;
    await connection.connect().catch((error: Error) => {
      throw new Error(`Redis at ${config.redisUrl} does not answer: ${error.message}`);
    });
    await connection.ping();
    closers.push(() => connection.quit());
    mapStore = new RedisMapStore(connection, { namespace: config.topicPrefix });
    // The tenants' delegation graphs are kept beside the detector state (same keys whichever pipeline runs).
    const detectorStates = new RedisDetectorStateStore(connection, { namespace: config.topicPrefix });
    extraProviders.push({ provide: DETECTOR_STATE_STORE, useValue: detectorStates }, { provide: DELEGATION_GRAPH_STORE, useValue: detectorStates });
    const stores: AgentStateStores = (kind) => new RedisAgentStateStore(connection, kind, { namespace: config.topicPrefix });
    extraProviders.push({ provide: AGENT_STATE_STORES, useValue: stores });
    extraProviders.push({ provide: HELD_STEP_STORE, useValue: new RedisHeldSteps(connection, { namespace: config.topicPrefix }) });
    history = new RedisHistoryStore(connection, { namespace: config.topicPrefix, retentionOf });
    extraProviders.push({ provide: DELIVERY_LOG, useValue: new RedisDeliveryLog(connection, { namespace: config.topicPrefix }) });
    // Escalations waiting for their webhook survive a restart: another notifier, or this one restarted, takes them over.
    extraProviders.push({ provide: PENDING_DELIVERIES, useValue: new RedisPendingDeliveries(connection, { namespace: config.topicPrefix }) });
    rawBus = options.bus ?? makeBus('services');
    checks.kafka = kafkaCheck(config.kafkaBrokers, undefined, security as Parameters<typeof kafkaCheck>[2]);
    checks.redis = redisCheck(connection);
    dependencies.Redis = checks.redis;
  }
  // The operator's egress: where a tenant's proxy upstream and webhooks may go (the gateway adds its own upstreams).
  const egress = egressFromEnv({ WAYFINDER_EGRESS_ALLOW: config.egressAllow, WAYFINDER_EGRESS_ALLOW_PRIVATE: config.egressAllowPrivate });
  extraProviders.push({ provide: HISTORY_STORE, useValue: history }, { provide: WEBHOOK_TIMEOUT_MS, useValue: options.webhookTimeoutMs ?? 10_000 }, { provide: WEBHOOK_EGRESS, useValue: egress });
  // Each tenant's webhook lane retries as the notifier's bus would (a hanging receiver delays only its tenant).
  extraProviders.push({ provide: WEBHOOK_LANES, useValue: { ...NOTIFIER_RETRY, ...options.notifierRetry } });
  const system = config.mode === 'embedded' ? 'in-process' : 'kafka';
  const tracing = { system, eventSampleRatio: config.traceSampleRatio, propagation: config.tracePropagation };
  // Distributed: every process reads the compacted topics (maps, policies) whole, in a group of its own.
  const instanceId = config.mode === 'distributed' ? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}` : undefined;
  const traced = new TracedBus(rawBus, tracing);
  // One-pass: the history recorder and memory service beside the navigator read its localized steps in
  // process (co-located-readers.ts), and follow the steps consumer's rebalances.
  const readers =
    coLocated.length > 0 || config.localizedOutput === 'none'
      ? new CoLocatedReaders('wayfinder.localized.v1', coLocated.map((s) => serviceGroupId(config, s)), localizedStaysLocal(config))
      : undefined;
  readers?.rebalancesFrom(traced);
  const fuse = (inner: Bus): Bus => (readers ? new CoLocatedBus(inner, readers) : inner);
  const bus = fuse(traced);
  const metrics = navigationMetrics();

  let health: HealthServer | undefined;
  if (config.mode === 'distributed' || config.httpPort > 0) {
    health = await startHealthServer({ port: config.httpPort, checks });
    const server = health;
    closers.push(() => server.close());
  }

  let memory: RunningMemoryService | undefined;
  if (services.includes('memory-service')) {
    // Its own bus client and consumer group: it is an HTTP app with a transport of its own.
    const memoryBus = config.mode === 'embedded' ? new InProcessBus({ broker: (rawBus as InProcessBus).broker }) : makeBus('memory');
    const stores = memoryStores({
      mode: config.mode,
      redis,
      qdrantUrl: config.qdrantUrl,
      qdrantApiKey: config.qdrantApiKey,
      dimension: embedder.dimension,
      namespace: config.topicPrefix || undefined,
      idleTtlMs: config.stateIdleTtlMs,
      maxAgents: config.stateMaxAgents,
    });
    const qdrantPing = stores.vectorStore.ping?.bind(stores.vectorStore);
    if (qdrantPing) dependencies.Qdrant = qdrantPing;
    memory = await startMemoryService({
      bus: fuse(new TracedBus(memoryBus, tracing)),
      stores,
      mapStore,
      embedder,
      port: config.memoryPort,
      host: config.memoryHost,
      apiKeys: config.memoryApiKeys,
      groupId: serviceGroupId(config, 'memory-service'),
      instanceId,
      logger: options.logger === false ? false : undefined,
    });
    const running = memory;
    closers.push(() => running.stop());
  }

  // OTLP ingest behind POST /v1/traces (DESIGN §12): raw spans on wayfinder.otlp.v1 → steps. A service of
  // its own in the fleet (its own bus client and group); embedded, the gateway always brings it along.
  if (services.includes('otlp-normalizer') || (config.mode === 'embedded' && services.includes('gateway'))) {
    const otlpBus = new TracedBus(config.mode === 'embedded' ? new InProcessBus({ broker: doorBroker(rawBus) }) : makeBus('otlp-normalizer'), tracing);
    const normalizer = startOtlpNormalizer({ bus: otlpBus, groupId: serviceGroupId(config, 'otlp-normalizer') }); // subscribes before the bus starts
    closers.push(async () => {
      await normalizer.stop(); // flushes the open traces while the bus still publishes
      await otlpBus.stop();
    });
    await otlpBus.start();
  }

  let gateway: RunningGateway | undefined;
  let gatewayLocalMode: boolean | undefined;
  if (services.includes('gateway')) {
    // Like the memory service: an HTTP app with its own bus client and consumer group (the corrections feed).
    const gatewayBus = config.mode === 'embedded' ? new InProcessBus({ broker: doorBroker(rawBus) }) : makeBus('gateway');
    const authenticator = authenticatorFor(config, keyStoreFor(config, redis));
    gatewayLocalMode = await authenticator.localMode();
    gateway = await startGatewayService({
      bus: new TracedBus(gatewayBus, tracing),
      authenticator,
      correctionLog: correctionLogFor(config, redis),
      stepSeqs: stepSeqsFor(config, redis),
      mapStore,
      policyBook,
      embedder,
      port: config.gatewayPort,
      host: config.gatewayHost,
      ...(config.gatewayTlsCert && config.gatewayTlsKey && { tls: { cert: readFileSync(config.gatewayTlsCert), key: readFileSync(config.gatewayTlsKey) } }),
      groupId: serviceGroupId(config, 'gateway'),
      instanceId,
      logger: options.logger === false ? false : undefined,
      options: {
        proxyTimeoutMs: config.proxyTimeoutMs,
        proxyMaxResponseBytes: config.proxyMaxResponseBytes,
        ingestCeiling: { eventsPerSecond: config.ingestMaxEventsPerSecond, burst: config.ingestMaxBurst },
        historyRetentionMaxMs: config.historyRetentionMaxMs,
        maxStreamsPerTenant: config.maxStreamsPerTenant,
        maxStreams: config.maxStreams,
        ...(config.proxyUpstream && { proxyUpstream: config.proxyUpstream }),
        anthropicUpstream: config.anthropicUpstream,
        mcpServers: config.mcpServers,
        // The operator's own upstreams are always allowed (gatewayEgress adds them to the allow-list).
        egress,
      },
      // The operators' surface (query API, dashboard) on the gateway's server, over the history store.
      operations: { store: history, retention },
      // /health/ready on the gateway's port runs the health server's checks (the same object, read per request).
      health: { checks },
    });
    const running = gateway;
    closers.push(() => running.stop());
  }

  // One Nest app and one consumer group per stream service (`<groupPrefix>.<service>`), sharing the bus
  // (one producer) and the stores: co-located services consume exactly as they would deployed alone, each
  // hop has its own fetch loop, and a service can move to another process without losing its offsets.
  const apps: INestMicroservice[] = [];
  if (streamServices.length > 0) {
    monitorDeadLetters(traced, metrics);
    // The bus stops first (in-flight batches finish and are committed), then the apps close.
    closers.push(async () => {
      await bus.stop();
      for (const started of [...apps].reverse()) await started.close();
    });
    // In name order, which starts the history recorder (the memory service started above) before the
    // navigator that feeds it in process.
    for (const service of streamServices) {
      let serviceBus: Bus = bus;
      if (service === 'escalation-notifier') {
        // A bus of its own: its retry policy (backoff, then the DLQ) must not be the pipeline's.
        const retry = { ...NOTIFIER_RETRY, ...options.notifierRetry };
        const own =
          config.mode === 'embedded'
            ? new InProcessBus({ broker: (rawBus as InProcessBus).broker, retry })
            : createKafkaBus(config.kafkaClient, { security, brokers: config.kafkaBrokers, clientId: `${config.kafkaClientId}-notifier`, topicPrefix: config.topicPrefix, sessionTimeoutMs: config.kafkaSessionTimeoutMs, retry });
        serviceBus = new TracedBus(own, tracing);
        const ownBus = serviceBus;
        closers.push(() => ownBus.stop());
      }
      const imports: Array<Type<unknown> | DynamicModule> = [
        WayfinderCoreModule.forRoot({ bus: serviceBus, mapStore, policyBook, embedder, vectors, extraProviders }),
        SERVICE_MODULES[service],
      ];
      if (POLICY_READERS.includes(service)) imports.push(PoliciesModule);

      @Module({ imports })
      class WayfinderServiceModule {}

      const created = await NestFactory.createMicroservice(WayfinderServiceModule, {
        strategy: new BusTransport(serviceBus, { groupId: serviceGroupId(config, service), maxBatchSize: 1_000, stopBusOnClose: false, instanceId }),
        logger: options.logger ?? ['error', 'warn'],
        // A lookup of a provider this app does not have throws (RunningServices.get tries each app) instead of exiting.
        abortOnError: false,
      });
      created.useGlobalFilters(new HandlerErrorFilter());
      apps.push(created);
      await created.listen();
    }

    if (config.mode === 'distributed') {
      const groups = streamServices.map((s) => ({
        groupId: serviceGroupId(config, s),
        // Lag of the service's own group; the compacted topics are read by per-instance groups.
        topics: CONSUMED[s].filter((t) => (TOPIC_NAMES as string[]).includes(t) && !TOPICS[t as TopicName].compacted && !(t === 'wayfinder.localized.v1' && coLocated.includes(s))),
      }));
      const lag = new KafkaLagMonitor({ brokers: config.kafkaBrokers, security, topicPrefix: config.topicPrefix, groups });
      metrics.observeConsumerLag(lag.readings);
      lag.start();
      closers.push(async () => lag.stop());
    }
  }

  let stopped = false;
  const get = <T>(type: Type<T>): T => {
    for (const candidate of apps) {
      try {
        return candidate.get(type, { strict: false });
      } catch {
        // not in this service's app
      }
    }
    throw new Error(`no running service provides ${type.name}`);
  };
  return {
    bus,
    apps,
    get,
    correctionEngine: () => (config.services.includes('navigator') ? get(NavigationHandler).engine : get(CorrectionHandler).engine),
    mapStore,
    policyBook,
    history,
    memory,
    gateway,
    gatewayLocalMode,
    health,
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopAll();
    },
  };
}
