/**
 * Starts a set of Wayfinder services in this process (DESIGN §3 "Co-location and the embedded default"):
 * - embedded: every service on the in-process bus with in-memory stores — no server needed;
 * - distributed: the chosen services on Kafka with Redis, one consumer group per process.
 * The same Nest modules run in both; only the bus and the stores differ. Nothing consumes until the
 * dependencies answer (readiness gate), and stop() finishes in-flight batches and commits them.
 */
import 'reflect-metadata';
import { Module, type DynamicModule, type INestMicroservice, type LoggerService, type Provider, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import Redis from 'ioredis';
import { BusTransport, InProcessBus, KafkaBus, type Bus } from '@wayfinder/bus';
import type { ServiceName, WayfinderConfig } from '@wayfinder/config';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { RedisDetectorStateStore, RedisMapStore } from '@wayfinder/redis';
import { CorrectionEngineModule } from '@wayfinder/service-correction-engine';
import { InMemoryMapStore, PoliciesHandler, PolicyBook, WayfinderCoreModule, type MapStore } from '@wayfinder/service-core';
import { DETECTOR_STATE_STORE, DetectorWorkerModule } from '@wayfinder/service-detector-worker';
import { StateLocalizerModule } from '@wayfinder/service-state-localizer';
import { TaskParserModule } from '@wayfinder/service-task-parser';

const SERVICE_MODULES: Record<ServiceName, Type<unknown>> = {
  'task-parser': TaskParserModule,
  'state-localizer': StateLocalizerModule,
  'detector-worker': DetectorWorkerModule,
  'correction-engine': CorrectionEngineModule,
};

/** Services that resolve policies and so must follow the policies topic. */
const POLICY_READERS: ServiceName[] = ['detector-worker', 'correction-engine'];

@Module({ controllers: [PoliciesHandler] })
class PoliciesModule {}

export interface RunningServices {
  readonly bus: Bus;
  readonly app: INestMicroservice;
  readonly mapStore: MapStore;
  readonly policyBook: PolicyBook;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Use this bus instead of building one from the configuration (tests, the demo). */
  bus?: Bus;
  logger?: LoggerService | false;
}

export async function startServices(config: WayfinderConfig, options: StartOptions = {}): Promise<RunningServices> {
  const closers: Array<() => Promise<unknown>> = [];
  let bus: Bus;
  let mapStore: MapStore;
  const extraProviders: Provider[] = [];
  if (config.mode === 'embedded') {
    bus = options.bus ?? new InProcessBus();
    mapStore = new InMemoryMapStore();
  } else {
    const redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
    await redis.connect().catch((error: Error) => {
      throw new Error(`Redis at ${config.redisUrl} does not answer: ${error.message}`);
    });
    await redis.ping();
    closers.push(() => redis.quit());
    mapStore = new RedisMapStore(redis, { namespace: config.topicPrefix });
    extraProviders.push({ provide: DETECTOR_STATE_STORE, useValue: new RedisDetectorStateStore(redis, { namespace: config.topicPrefix }) });
    bus =
      options.bus ??
      new KafkaBus({
        brokers: config.kafkaBrokers,
        clientId: config.kafkaClientId,
        topicPrefix: config.topicPrefix,
        sessionTimeoutMs: config.kafkaSessionTimeoutMs,
        heartbeatIntervalMs: Math.min(3_000, Math.floor(config.kafkaSessionTimeoutMs / 5)),
      });
  }
  const policyBook = new PolicyBook(config.profile);
  const services = [...new Set(config.services)].sort();
  const imports: Array<Type<unknown> | DynamicModule> = [
    WayfinderCoreModule.forRoot({ bus, mapStore, policyBook, embedder: new HashingEmbedder(), extraProviders }),
    ...services.map((s) => SERVICE_MODULES[s]),
  ];
  if (services.some((s) => POLICY_READERS.includes(s))) imports.push(PoliciesModule);

  @Module({ imports })
  class WayfinderServicesModule {}

  const groupId = `${config.groupPrefix}.${services.join('+')}`;
  const app = await NestFactory.createMicroservice(WayfinderServicesModule, {
    strategy: new BusTransport(bus, { groupId }),
    logger: options.logger ?? ['error', 'warn'],
  });
  app.enableShutdownHooks();
  await app.listen();
  let stopped = false;
  return {
    bus,
    app,
    mapStore,
    policyBook,
    async stop() {
      if (stopped) return;
      stopped = true;
      await app.close();
      for (const close of closers.reverse()) await close();
    },
  };
}
