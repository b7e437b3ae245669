/** Injection tokens of what every service shares in a process: the bus, the map store, the policy book. */
export const BUS = Symbol('wayfinder.bus');
export const MAP_STORE = Symbol('wayfinder.map-store');
export const POLICY_BOOK = Symbol('wayfinder.policy-book');
export const EMBEDDER = Symbol('wayfinder.embedder');
/** The Clock (@wayfinder/clock) every handler reads time through where time decides something; the system clock unless a test sets one. */
export const CLOCK = Symbol('wayfinder.clock');
/** The semantic embedders' vectors (an EmbeddingCache over hashing + the models found), per process. */
export const VECTORS = Symbol('wayfinder.vectors');
