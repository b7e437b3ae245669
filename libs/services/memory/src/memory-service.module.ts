/**
 * The memory service as a Nest module: the event handlers (Bus transport) and the HTTP API. It needs the
 * globals of WayfinderCoreModule (BUS, MAP_STORE, EMBEDDER) and is given its stores:
 * `MemoryServiceModule.forRoot(memoryStores({ mode, redis, qdrantUrl, dimension: embedder.dimension }))`.
 * In a microservice-only app the HTTP routes are simply not served; `startMemoryService` runs both.
 */
import { Module, type DynamicModule } from '@nestjs/common';
import type { Embedder } from '@wayfinder/embeddings';
import { DurableAgentStates, EMBEDDER, MAP_STORE } from '@wayfinder/service-core';
import { AgentContextReader } from './agent-context';
import { AgentsController } from './agents.controller';
import { AgentTrails } from './agent-trails';
import { MemoriesController } from './memories.controller';
import { MemoryEventsHandler } from './memory-events.handler';
import { MEMORY_MAPS, memoryMaps } from './memory-maps';
import { MemoryRecorder, type MemoryRecorderOptions } from './memory-recorder';
import type { MemoryStores } from './memory-stores';
import { MEMORY_EMBEDDER, MEMORY_OPTIONS, MEMORY_TRAIL_STATES, VECTOR_STORE, WORKING_MEMORY } from './tokens';

@Module({})
export class MemoryServiceModule {
  /** `options.embedder`: long-term memory's embedder (default: the process's hashing embedder, EMBEDDER). */
  static forRoot(stores: MemoryStores, options: Pick<MemoryRecorderOptions, 'now'> & { embedder?: Embedder } = {}): DynamicModule {
    const { embedder, ...recorderOptions } = options;
    // With a store, the trails are bounded by DurableAgentStates (evicted agents come back from the store).
    const trails = new AgentTrails(stores.trailStore ? Infinity : undefined);
    const states = new DurableAgentStates(trails, stores.trailStore, { idleTtlMs: stores.idleTtlMs, maxAgents: stores.maxAgents });
    return {
      module: MemoryServiceModule,
      controllers: [MemoryEventsHandler, AgentsController, MemoriesController],
      providers: [
        { provide: WORKING_MEMORY, useValue: stores.workingMemory },
        { provide: VECTOR_STORE, useValue: stores.vectorStore },
        { provide: MEMORY_MAPS, useFactory: memoryMaps, inject: [MAP_STORE] },
        { provide: AgentTrails, useValue: trails },
        { provide: MEMORY_TRAIL_STATES, useValue: states },
        embedder ? { provide: MEMORY_EMBEDDER, useValue: embedder } : { provide: MEMORY_EMBEDDER, useExisting: EMBEDDER },
        { provide: MEMORY_OPTIONS, useValue: { ...recorderOptions, ...(stores.ttlMs !== undefined && { ttlMs: stores.ttlMs }) } satisfies MemoryRecorderOptions },
        MemoryRecorder,
        AgentContextReader,
      ],
      exports: [WORKING_MEMORY, VECTOR_STORE, MemoryRecorder],
    };
  }
}
