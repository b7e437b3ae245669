/**
 * The one place the goal checks ask an embedder for similarity. They compare short texts against the
 * map's own (constraints, sub-goals, milestones) on the synchronous hashing path of the embedder port
 * (DESIGN §5.6); a semantic embedder for them would be prefetched here, not in the detectors.
 */
import { cosine, type SyncEmbedder } from '@wayfinder/embeddings';

export type TextSimilarity = (a: string, b: string) => number;

/** Similarity of two texts by the embedder; texts embedded once per (embedder, text) in a small cache. */
export function textSimilarity(embedder: SyncEmbedder, cacheSize = 256): TextSimilarity {
  const cache = new Map<string, Float32Array>();
  const vector = (text: string): Float32Array => {
    let v = cache.get(text);
    if (!v) {
      v = embedder.embedSync(text);
      cache.set(text, v);
      if (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
    }
    return v;
  };
  return (a, b) => {
    if (a.trim().length === 0 || b.trim().length === 0) return 0;
    return cosine(vector(a), vector(b));
  };
}
