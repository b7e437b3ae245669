/**
 * Runs the memory service as a hybrid Nest app: the event handlers on the Bus transport and the HTTP API
 * on one port. `startServices` (libs/services/runtime) can call this for the memory service, since its
 * other services are microservice-only apps without HTTP.
 */
import 'reflect-metadata';
import { Module, type INestApplication, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { listenOnBus, type Bus } from '@wayfinder/bus';
import { HashingEmbedder, isSyncEmbedder, type Embedder } from '@wayfinder/embeddings';
import { QdrantVectorStore } from '@wayfinder/qdrant';
import { InMemoryMapStore, PolicyBook, WayfinderCoreModule, type MapStore } from '@wayfinder/service-core';
import { MemoryServiceModule } from './memory-service.module';
import type { MemoryStores } from './memory-stores';
import { TenantKeyGuard, tenantKeys, type TenantOfKey } from './tenant-key.guard';

export interface MemoryServiceOptions {
  bus: Bus;
  stores: MemoryStores;
  /** Default: an in-memory map store (embedded mode); pass the RedisMapStore in distributed mode. */
  mapStore?: MapStore;
  /** Default: the hashing embedder; its dimension must be the vector store's. */
  embedder?: Embedder;
  /** HTTP port; 0 (the default) picks a free one. */
  port?: number;
  host?: string;
  /** Consumer group of the service (default `wayfinder.memory-service`). */
  groupId?: string;
  /** Set when several instances share the group: each then reads the compacted topics whole (BusTransport). */
  instanceId?: string;
  /**
   * Who may call the HTTP API: keys → tenant (WAYFINDER_MEMORY_API_KEYS) or a lookup. Without it the
   * API answers every request 401 (never open).
   */
  apiKeys?: Readonly<Record<string, string>> | TenantOfKey;
  /** Whether closing the app also stops the bus (default true; false when the bus is shared). */
  stopBusOnClose?: boolean;
  logger?: LoggerService | false;
}

export interface RunningMemoryService {
  readonly app: INestApplication;
  /** `http://host:port`, the port actually bound. */
  readonly url: string;
  stop(): Promise<void>;
}

export async function startMemoryService(options: MemoryServiceOptions): Promise<RunningMemoryService> {
  const embedder = options.embedder ?? new HashingEmbedder();
  // The process-wide hashing embedder of the core; long-term memory embeds with `embedder` (any Embedder).
  // Readiness gate: nothing is consumed before long-term memory answers (Redis is connected by the caller).
  const { vectorStore } = options.stores;
  if (vectorStore instanceof QdrantVectorStore) {
    await vectorStore.ensureCollection().catch((error: Error) => {
      throw new Error(`Qdrant does not answer (collection ${vectorStore.collection}): ${error.message}`);
    });
  }
  const core = WayfinderCoreModule.forRoot({
    bus: options.bus,
    mapStore: options.mapStore ?? new InMemoryMapStore(),
    policyBook: new PolicyBook(),
    embedder: isSyncEmbedder(embedder) ? embedder : new HashingEmbedder(),
  });

  @Module({ imports: [core, MemoryServiceModule.forRoot(options.stores, { embedder })] })
  class MemoryServiceAppModule {}

  const app = await NestFactory.create(MemoryServiceAppModule, { logger: options.logger ?? ['error', 'warn'] });
  const keys = options.apiKeys;
  app.useGlobalGuards(new TenantKeyGuard(typeof keys === 'function' ? keys : keys && Object.keys(keys).length > 0 ? tenantKeys(keys) : undefined));
  const listening = await listenOnBus(app, { bus: options.bus, groupId: options.groupId ?? 'wayfinder.memory-service', stopBusOnClose: options.stopBusOnClose, instanceId: options.instanceId, host: options.host, port: options.port });
  return { app, url: listening.url, stop: () => listening.stop() };
}
