/**
 * @wayfinder/service-memory: the memory service (DESIGN §5.5) — working memory and long-term memory
 * written from the navigation events, and an HTTP API for an agent's assembled context, memories and
 * checkpoints, tenant by tenant.
 */
export * from './tokens';
export * from './memory-stores';
export { MemoryServiceModule } from './memory-service.module';
export { MemoryEventsHandler } from './memory-events.handler';
export { MemoryRecorder, type MemoryRecorderOptions } from './memory-recorder';
export { AgentTrails } from './agent-trails';
export { AgentContextReader, type AgentContext } from './agent-context';
export { startMemoryService, type MemoryServiceOptions, type RunningMemoryService } from './start-memory-service';
export * from './tenant-key.guard';
