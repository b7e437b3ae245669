/** Injection tokens of the memory service's stores (the ports of @wayfinder/memory). */
export const WORKING_MEMORY = Symbol('wayfinder.working-memory');
export const VECTOR_STORE = Symbol('wayfinder.vector-store');
/** Options of the memory service (MemoryRecorderOptions): the working-memory TTL, a clock for tests. */
export const MEMORY_OPTIONS = Symbol('wayfinder.memory.options');
/** The durable per-agent trails (DurableAgentStates over AgentTrails). */
export const MEMORY_TRAIL_STATES = Symbol('wayfinder.memory.trail-states');
