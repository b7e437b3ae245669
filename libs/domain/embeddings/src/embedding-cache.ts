/**
 * The per-agent embedding cache (DESIGN §5.6): a text is embedded once per agent and embedder, in
 * batches, and the detectors read the vectors synchronously (VectorSource). Bounded: at most
 * `maxTextsPerAgent` texts per agent and `maxVectors` vectors in all, least recently used agents and
 * texts first out. Eviction happens only at the start of a prefetch, so the vectors a batch prefetched
 * stay until its detectors have read them (they run right after the prefetch, synchronously); the cache
 * may hold one batch more than `maxVectors` meanwhile.
 */
import type { EmbedderName } from '@wayfinder/contracts';
import type { Embedder, SyncEmbedder } from './embedder';
import { hashingVectors, type VectorSource } from './vector-source';

export interface EmbeddingCacheOptions {
  /** The hashing embedder (always available; serves every choice whose embedder is absent). */
  hashing: SyncEmbedder;
  /** Semantic embedders that are available (their model files were found). */
  semantic?: readonly Embedder[];
  maxTextsPerAgent?: number;
  maxVectors?: number;
  /** Texts are cut to this many characters before embedding (the models read ~256–512 tokens anyway). */
  maxChars?: number;
  /** Texts per call to a semantic embedder. */
  batchSize?: number;
  /** Told once per name when a choice is served by hashing because its embedder is not in this cache. */
  onFallback?: (choice: EmbedderName) => void;
}

export interface EmbeddingRequest {
  choice: EmbedderName;
  /** agentKey(tenantId, agentId) */
  agent: string;
  text: string;
}

export interface EmbeddingCacheStats {
  /** Texts embedded by a semantic embedder. */
  embedded: number;
  /** Prefetch requests already in the cache. */
  hits: number;
  /** Reads of a semantic vector that was not prefetched (should stay 0). */
  misses: number;
  /** Vectors held now. */
  vectors: number;
}

class Store {
  /** agent → text → vector; both maps in least-recently-used-first order. */
  readonly agents = new Map<string, Map<string, Float32Array>>();
  size = 0;
  /** Agents past the per-agent limit since the last trim. */
  readonly overfull = new Set<string>();
  constructor(readonly embedder: Embedder) {}
}

export class EmbeddingCache implements VectorSource {
  private readonly hashing: SyncEmbedder;
  private readonly hashingSource: VectorSource;
  private readonly stores = new Map<EmbedderName, Store>();
  private readonly maxTextsPerAgent: number;
  private readonly maxVectors: number;
  private readonly maxChars: number;
  private readonly batchSize: number;
  private readonly counters = { embedded: 0, hits: 0, misses: 0 };
  private readonly onFallback?: (choice: EmbedderName) => void;
  private readonly fellBack = new Set<EmbedderName>();

  constructor(options: EmbeddingCacheOptions) {
    this.hashing = options.hashing;
    this.hashingSource = hashingVectors(options.hashing);
    for (const embedder of options.semantic ?? []) {
      if (embedder.name !== 'hashing') this.stores.set(embedder.name, new Store(embedder));
    }
    this.maxTextsPerAgent = options.maxTextsPerAgent ?? 128;
    this.maxVectors = options.maxVectors ?? 20_000;
    this.maxChars = options.maxChars ?? 2048;
    this.batchSize = options.batchSize ?? 32;
    this.onFallback = options.onFallback;
    if (this.maxTextsPerAgent < 1 || this.maxVectors < 1 || this.maxChars < 1 || this.batchSize < 1) throw new Error('embedding cache limits must be positive');
  }

  get embedsAhead(): boolean {
    return this.stores.size > 0;
  }

  /** The embedders this cache really serves (hashing plus the semantic ones given). */
  get available(): EmbedderName[] {
    return ['hashing', ...this.stores.keys()];
  }

  /** The embedder behind a name, when it is available. */
  embedderOf(name: EmbedderName): Embedder | undefined {
    return name === 'hashing' ? this.hashing : this.stores.get(name)?.embedder;
  }

  served(choice: EmbedderName): EmbedderName {
    if (choice === 'hashing' || this.stores.has(choice)) return choice;
    if (!this.fellBack.has(choice)) {
      this.fellBack.add(choice);
      this.onFallback?.(choice);
    }
    return 'hashing';
  }

  get stats(): EmbeddingCacheStats {
    let vectors = 0;
    for (const store of this.stores.values()) vectors += store.size;
    return { ...this.counters, vectors };
  }

  /** Embeds, in batches per embedder, every requested text not yet cached for its agent. */
  async prefetch(requests: readonly EmbeddingRequest[]): Promise<void> {
    const wanted = new Map<Store, Map<string, Set<string>>>(); // store → text → agents
    for (const request of requests) {
      const store = this.stores.get(this.served(request.choice));
      if (!store) continue; // hashing: computed when read
      const key = this.keyOf(request.text);
      const cached = store.agents.get(request.agent)?.get(key);
      if (cached) {
        this.counters.hits++;
        continue;
      }
      let texts = wanted.get(store);
      if (!texts) wanted.set(store, (texts = new Map()));
      let agents = texts.get(key);
      if (!agents) texts.set(key, (agents = new Set()));
      agents.add(request.agent);
    }
    for (const store of this.stores.values()) this.trim(store);
    for (const [store, texts] of wanted) {
      const keys = [...texts.keys()];
      for (let i = 0; i < keys.length; i += this.batchSize) {
        const chunk = keys.slice(i, i + this.batchSize);
        const vectors = await store.embedder.embed(chunk);
        if (vectors.length !== chunk.length) throw new Error(`embedder ${store.embedder.id} returned ${vectors.length} vectors for ${chunk.length} texts`);
        this.counters.embedded += chunk.length;
        chunk.forEach((key, j) => {
          for (const agent of texts.get(key) ?? []) this.put(store, agent, key, vectors[j]);
        });
      }
    }
  }

  vectorOf(choice: EmbedderName, agent: string, text: string, scratch?: Float32Array): Float32Array | undefined {
    const store = this.stores.get(this.served(choice));
    if (!store) return this.hashingSource.vectorOf('hashing', agent, text, scratch);
    const texts = store.agents.get(agent);
    const key = this.keyOf(text);
    const vector = texts?.get(key);
    if (!vector || !texts) {
      this.counters.misses++;
      return undefined;
    }
    // Most recently used last, for the agent and for its texts.
    texts.delete(key);
    texts.set(key, vector);
    store.agents.delete(agent);
    store.agents.set(agent, texts);
    return vector;
  }

  /** Drops an agent's vectors (partition revoked, agent evicted). */
  forget(agent: string): void {
    for (const store of this.stores.values()) {
      const texts = store.agents.get(agent);
      if (!texts) continue;
      store.size -= texts.size;
      store.agents.delete(agent);
    }
  }

  private keyOf(text: string): string {
    return text.length > this.maxChars ? text.slice(0, this.maxChars) : text;
  }

  private put(store: Store, agent: string, key: string, vector: Float32Array): void {
    let texts = store.agents.get(agent);
    if (texts) store.agents.delete(agent);
    else texts = new Map();
    store.agents.set(agent, texts);
    if (!texts.has(key)) store.size++;
    else texts.delete(key);
    texts.set(key, vector);
    if (texts.size > this.maxTextsPerAgent) store.overfull.add(agent);
  }

  /** Evicts least recently used texts: past the per-agent limit, then agents past the total limit. */
  private trim(store: Store): void {
    for (const agent of store.overfull) {
      const texts = store.agents.get(agent);
      while (texts && texts.size > this.maxTextsPerAgent) {
        texts.delete(texts.keys().next().value as string);
        store.size--;
      }
    }
    store.overfull.clear();
    while (store.size > this.maxVectors) {
      const [agent, texts] = store.agents.entries().next().value as [string, Map<string, Float32Array>];
      const drop = Math.min(texts.size, store.size - this.maxVectors);
      for (let i = 0; i < drop; i++) texts.delete(texts.keys().next().value as string);
      store.size -= drop;
      if (texts.size === 0) store.agents.delete(agent);
    }
  }
}
