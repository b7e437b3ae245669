/** Injection tokens of the memory service's stores (the ports of @wayfinder/memory). */
/** The embedder of long-term memory (the async port: any Embedder; its dimension is the vector store's). */
export const MEMORY_EMBEDDER = Symbol('wayfinder.memory.embedder');
export const WORKING_MEMORY = Symbol('wayfinder.working-memory');
export const VECTOR_STORE = Symbol('wayfinder.vector-store');
/** Options of the memory service (MemoryRecorderOptions): the working-memory TTL, a clock for tests. */
export const MEMORY_OPTIONS = Symbol('wayfinder.memory.options');
/** The durable per-agent trails (DurableAgentStates over AgentTrails). */
export const MEMORY_TRAIL_STATES = Symbol('wayfinder.memory.trail-states');
