/**
 * The memory service as a Nest module: the event handlers (Bus transport) and the HTTP API. It needs the
 * globals of WayfinderCoreModule (BUS, MAP_STORE, EMBEDDER) and is given its stores:
 * `MemoryServiceModule.forRoot(memoryStores({ mode, redis, qdrantUrl, dimension: embedder.dimension }))`.
 * In a microservice-only app the HTTP routes are simply not served; `startMemoryService` runs both.
 */
import { Module, type DynamicModule } from '@nestjs/common';
import type { Embedder } from '@wayfinder/embeddings';
import { EMBEDDER, MAP_STORE } from '@wayfinder/service-core';
import { AgentContextReader } from './agent-context';
import { AgentsController } from './agents.controller';
import { AgentTrails } from './agent-trails';
import { MemoriesController } from './memories.controller';
import { MemoryEventsHandler } from './memory-events.handler';
import { MEMORY_MAPS, memoryMaps } from './memory-maps';
import { MemoryRecorder, type MemoryRecorderOptions } from './memory-recorder';
import type { MemoryStores } from './memory-stores';
import { MEMORY_EMBEDDER, MEMORY_OPTIONS, VECTOR_STORE, WORKING_MEMORY } from './tokens';

@Module({})
export class MemoryServiceModule {
  /** `options.embedder`: long-term memory's embedder (default: the process's hashing embedder, EMBEDDER). */
  static forRoot(stores: MemoryStores, options: Pick<MemoryRecorderOptions, 'now'> & { embedder?: Embedder } = {}): DynamicModule {
    const { embedder, ...recorderOptions } = options;
    return {
      module: MemoryServiceModule,
      controllers: [MemoryEventsHandler, AgentsController, MemoriesController],
      providers: [
        { provide: WORKING_MEMORY, useValue: stores.workingMemory },
        { provide: VECTOR_STORE, useValue: stores.vectorStore },
        { provide: MEMORY_MAPS, useFactory: memoryMaps, inject: [MAP_STORE] },
        { provide: AgentTrails, useValue: new AgentTrails() },
        embedder ? { provide: MEMORY_EMBEDDER, useValue: embedder } : { provide: MEMORY_EMBEDDER, useExisting: EMBEDDER },
        { provide: MEMORY_OPTIONS, useValue: { ...recorderOptions, ...(stores.ttlMs !== undefined && { ttlMs: stores.ttlMs }) } satisfies MemoryRecorderOptions },
        MemoryRecorder,
        AgentContextReader,
      ],
      exports: [WORKING_MEMORY, VECTOR_STORE, MemoryRecorder],
    };
  }
}
