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
import { Module, type DynamicModule, type INestMicroservice, type LoggerService, type Provider, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import Redis from 'ioredis';
import { TOPIC_NAMES, TOPICS, type TopicName } from '@wayfinder/contracts';
import { BusTransport, InProcessBus, KafkaBus, type Bus, type RetryPolicy } from '@wayfinder/bus';
import type { ServiceName, WayfinderConfig } from '@wayfinder/config';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { kafkaCheck, redisCheck, startHealthServer, type HealthCheck, type HealthServer } from '@wayfinder/health';
import { InMemoryHistoryStore, type HistoryStore } from '@wayfinder/history';
import { RedisDeliveryLog, RedisDetectorStateStore, RedisHistoryStore, RedisMapStore } from '@wayfinder/redis';
import { CorrectionEngineModule } from '@wayfinder/service-correction-engine';
import { InMemoryMapStore, PoliciesHandler, PolicyBook, WayfinderCoreModule, type MapStore } from '@wayfinder/service-core';
import { DETECTOR_STATE_STORE, DetectorWorkerModule } from '@wayfinder/service-detector-worker';
import { memoryStores, startMemoryService, type RunningMemoryService } from '@wayfinder/service-memory';
import {
  DELIVERY_LOG,
  EscalationNotifierModule,
  HISTORY_STORE,
  HistoryRecorderModule,
  InMemoryDeliveryLog,
  WEBHOOK_TIMEOUT_MS,
} from '@wayfinder/service-operations';
import { StateLocalizerModule } from '@wayfinder/service-state-localizer';
import { TaskParserModule } from '@wayfinder/service-task-parser';
import { KafkaLagMonitor, TracedBus, monitorDeadLetters, navigationMetrics } from '@wayfinder/telemetry';

type StreamService = Exclude<ServiceName, 'memory-service'>;

/** The consumer group of a service: the same whether it runs alone or co-located with others. */
export function serviceGroupId(config: Pick<WayfinderConfig, 'groupPrefix'>, service: ServiceName): string {
  return `${config.groupPrefix}.${service}`;
}

const SERVICE_MODULES: Record<StreamService, Type<unknown>> = {
  'task-parser': TaskParserModule,
  'state-localizer': StateLocalizerModule,
  'detector-worker': DetectorWorkerModule,
  'correction-engine': CorrectionEngineModule,
  'history-recorder': HistoryRecorderModule,
  'escalation-notifier': EscalationNotifierModule,
};

/** The topics each service consumes (for lag measurement). */
const CONSUMED: Record<StreamService, string[]> = {
  'task-parser': ['wayfinder.tasks.v1'],
  'state-localizer': ['wayfinder.steps.v1', 'wayfinder.maps.v1'],
  'detector-worker': ['wayfinder.localized.v1', 'wayfinder.maps.v1', 'wayfinder.policies.v1', 'wayfinder.suppressions.v1'],
  'correction-engine': ['wayfinder.localized.v1', 'wayfinder.deviations.v1', 'wayfinder.maps.v1', 'wayfinder.policies.v1'],
  'history-recorder': ['wayfinder.localized.v1', 'wayfinder.deviations.v1', 'wayfinder.corrections.v1', 'wayfinder.escalations.v1', 'wayfinder.would-send.v1'],
  'escalation-notifier': ['wayfinder.escalations.v1', 'wayfinder.policies.v1'],
};

/**
 * The notifier's own bus retries a failed webhook post with exponential backoff (about 1 min in all),
 * then dead-letters the escalation with the reason; it never shares a retry loop with the pipeline.
 */
export const NOTIFIER_RETRY: RetryPolicy = { maxAttempts: 6, initialBackoffMs: 1_000, maxBackoffMs: 30_000 };

/** Services that resolve policies and so must follow the policies topic. */
const POLICY_READERS: ServiceName[] = ['detector-worker', 'correction-engine', 'escalation-notifier'];

@Module({ controllers: [PoliciesHandler] })
class PoliciesModule {}

export interface RunningServices {
  readonly bus: Bus;
  /** One Nest app per stream service, in the order of `services` (none when only the memory service runs). */
  readonly apps: readonly INestMicroservice[];
  /** A controller or provider of whichever service app has it (tests, the demo). */
  get<T>(type: Type<T>): T;
  readonly mapStore: MapStore;
  readonly policyBook: PolicyBook;
  /** The operators' history (Redis in distributed mode, in memory embedded), filled by the history recorder. */
  readonly history: HistoryStore;
  readonly memory?: RunningMemoryService;
  readonly health?: HealthServer;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Use this bus instead of building one from the configuration (tests, the demo). */
  bus?: Bus;
  logger?: LoggerService | false;
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
  const embedder = new HashingEmbedder();
  const services = [...new Set(config.services)].sort();
  const streamServices = services.filter((s): s is StreamService => s !== 'memory-service');
  let redis: Redis | undefined;
  let mapStore: MapStore;
  let rawBus: Bus;
  const makeBus = (clientSuffix: string): Bus =>
    new KafkaBus({
      brokers: config.kafkaBrokers,
      clientId: `${config.kafkaClientId}-${clientSuffix}`,
      topicPrefix: config.topicPrefix,
      sessionTimeoutMs: config.kafkaSessionTimeoutMs,
      heartbeatIntervalMs: Math.min(3_000, Math.floor(config.kafkaSessionTimeoutMs / 5)),
      // Partitions are independent (order is per agent, within one partition): several in flight at once
      // keep the process busy while one batch waits on the broker or Redis.
      partitionsConsumedConcurrently: 4,
    });
  const extraProviders: Provider[] = [];
  const checks: Record<string, HealthCheck> = {};
  let history: HistoryStore;
  if (config.mode === 'embedded') {
    rawBus = options.bus ?? new InProcessBus();
    mapStore = new InMemoryMapStore();
    history = new InMemoryHistoryStore();
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
    extraProviders.push({ provide: DETECTOR_STATE_STORE, useValue: new RedisDetectorStateStore(connection, { namespace: config.topicPrefix }) });
    history = new RedisHistoryStore(connection, { namespace: config.topicPrefix });
    extraProviders.push({ provide: DELIVERY_LOG, useValue: new RedisDeliveryLog(connection, { namespace: config.topicPrefix }) });
    rawBus = options.bus ?? makeBus('services');
    checks.kafka = kafkaCheck(config.kafkaBrokers);
    checks.redis = redisCheck(connection);
  }
  extraProviders.push({ provide: HISTORY_STORE, useValue: history }, { provide: WEBHOOK_TIMEOUT_MS, useValue: options.webhookTimeoutMs ?? 10_000 });
  const system = config.mode === 'embedded' ? 'in-process' : 'kafka';
  const tracing = { system, eventSampleRatio: config.traceSampleRatio, propagation: config.tracePropagation };
  // Distributed: every process reads the compacted topics (maps, policies) whole, in a group of its own.
  const instanceId = config.mode === 'distributed' ? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}` : undefined;
  const bus = new TracedBus(rawBus, tracing);
  const metrics = navigationMetrics();
  const policyBook = new PolicyBook(config.profile);

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
    memory = await startMemoryService({
      bus: new TracedBus(memoryBus, tracing),
      stores: memoryStores({ mode: config.mode, redis, qdrantUrl: config.qdrantUrl, dimension: embedder.dimension }),
      mapStore,
      embedder,
      port: config.memoryPort,
      groupId: serviceGroupId(config, 'memory-service'),
      instanceId,
      logger: options.logger === false ? false : undefined,
    });
    const running = memory;
    closers.push(() => running.stop());
  }

  // One Nest app and one consumer group per stream service (`<groupPrefix>.<service>`), sharing the bus
  // (one producer) and the stores: co-located services consume exactly as they would deployed alone, each
  // hop has its own fetch loop, and a service can move to another process without losing its offsets.
  const apps: INestMicroservice[] = [];
  if (streamServices.length > 0) {
    monitorDeadLetters(bus, metrics);
    // The bus stops first (in-flight batches finish and are committed), then the apps close.
    closers.push(async () => {
      await bus.stop();
      for (const started of [...apps].reverse()) await started.close();
    });
    for (const service of streamServices) {
      let serviceBus: Bus = bus;
      if (service === 'escalation-notifier') {
        // A bus of its own: its retry policy (backoff, then the DLQ) must not be the pipeline's.
        const retry = { ...NOTIFIER_RETRY, ...options.notifierRetry };
        const own =
          config.mode === 'embedded'
            ? new InProcessBus({ broker: (rawBus as InProcessBus).broker, retry })
            : new KafkaBus({ brokers: config.kafkaBrokers, clientId: `${config.kafkaClientId}-notifier`, topicPrefix: config.topicPrefix, sessionTimeoutMs: config.kafkaSessionTimeoutMs, retry });
        serviceBus = new TracedBus(own, tracing);
        const ownBus = serviceBus;
        closers.push(() => ownBus.stop());
      }
      const imports: Array<Type<unknown> | DynamicModule> = [
        WayfinderCoreModule.forRoot({ bus: serviceBus, mapStore, policyBook, embedder, extraProviders }),
        SERVICE_MODULES[service],
      ];
      if (POLICY_READERS.includes(service)) imports.push(PoliciesModule);

      @Module({ imports })
      class WayfinderServiceModule {}

      const created = await NestFactory.createMicroservice(WayfinderServiceModule, {
        strategy: new BusTransport(serviceBus, { groupId: serviceGroupId(config, service), maxBatchSize: 1_000, stopBusOnClose: false, instanceId }),
        logger: options.logger ?? ['error', 'warn'],
      });
      apps.push(created);
      await created.listen();
    }

    if (config.mode === 'distributed') {
      const groups = streamServices.map((s) => ({
        groupId: serviceGroupId(config, s),
        // Lag of the service's own group; the compacted topics are read by per-instance groups.
        topics: CONSUMED[s].filter((t) => (TOPIC_NAMES as string[]).includes(t) && !TOPICS[t as TopicName].compacted),
      }));
      const lag = new KafkaLagMonitor({ brokers: config.kafkaBrokers, topicPrefix: config.topicPrefix, groups });
      metrics.observeConsumerLag(lag.readings);
      lag.start();
      closers.push(async () => lag.stop());
    }
  }

  let stopped = false;
  return {
    bus,
    apps,
    get<T>(type: Type<T>): T {
      for (const candidate of apps) {
        try {
          return candidate.get(type, { strict: false });
        } catch {
          // not in this service's app
        }
      }
      throw new Error(`no running service provides ${type.name}`);
    },
    mapStore,
    policyBook,
    history,
    memory,
    health,
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopAll();
    },
  };
}
