/**
 * What synchronous consumers (the detectors) read: the vector of a text for one agent, now. The rule
 * (DESIGN §5.6): a stream handler first awaits `EmbeddingCache.prefetch` for every text its batch's
 * steps will need (the detectors list them: `textsFor`), then runs the detectors, which stay pure and
 * synchronous and read the vectors here. The hashing embedder answers directly; a semantic one answers
 * from the prefetched cache, and `undefined` means a text was not prefetched (a bug, counted as a miss).
 */
import type { EmbedderName } from '@wayfinder/contracts';
import type { SyncEmbedder } from './embedder';

export interface VectorSource {
  /** The embedder that really serves `choice`: a semantic one whose model is absent is served by hashing. */
  served(choice: EmbedderName): EmbedderName;
  /**
   * The vector of `text` from the embedder serving `choice`, for `agent` (see agentKey). With hashing,
   * `scratch` (a vector of its dimension) may receive it, to spare an allocation on hot paths.
   */
  vectorOf(choice: EmbedderName, agent: string, text: string, scratch?: Float32Array): Float32Array | undefined;
}

/** A VectorSource that embeds ahead (EmbeddingCache): what stream handlers await before running detectors. */
export interface PrefetchingVectorSource extends VectorSource {
  /** False when only hashing is available: nothing to prefetch, callers skip listing texts at all. */
  readonly embedsAhead: boolean;
  prefetch(requests: readonly { choice: EmbedderName; agent: string; text: string }[]): Promise<void>;
}

/** The key of an agent's cache entries: tenants never share one. */
export function agentKey(tenantId: string, agentId: string): string {
  return `${tenantId}\u0000${agentId}`;
}

/** A VectorSource with the hashing embedder only: every choice is served by it (tests, pure replays). */
export function hashingVectors(hashing: SyncEmbedder): VectorSource {
  return {
    served: () => 'hashing',
    vectorOf: (_choice, _agent, text, scratch) =>
      scratch && hashing.embedInto && scratch.length === hashing.dimension ? hashing.embedInto(text, scratch) : hashing.embedSync(text),
  };
}
