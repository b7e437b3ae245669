/**
 * The Embedder port (DESIGN §5.6): asynchronous and batched, so that a model run in process (onnxruntime)
 * or behind an endpoint embeds a batch's texts in one call. Vectors are L2-normalized, so cosine = dot
 * product. The hashing embedder also has a synchronous path (`SyncEmbedder`): it is pure computation and
 * runs on the detector hot path. Detectors never await: they read vectors through a `VectorSource`
 * (vector-source.ts) that the stream handler has filled before it runs them.
 */
import type { EmbedderName } from '@wayfinder/contracts';

export type { EmbedderName };

export interface Embedder {
  /** Identifies the model and its version (e.g. `hashing-v1-256`, `minilm-l6-v2-q`). */
  readonly id: string;
  /** The policy name it serves (`hashing`, `minilm`, `bge-zh`): thresholds are calibrated per name. */
  readonly name: EmbedderName;
  readonly dimension: number;
  /** One unit vector per text, in order; the empty text is the zero vector. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** An embedder that computes in process with no I/O, so it can also answer synchronously. */
export interface SyncEmbedder extends Embedder {
  embedSync(text: string): Float32Array;
  /** Into a caller-owned vector of `dimension` floats (hot paths reuse one buffer). */
  embedInto?(text: string, out: Float32Array): Float32Array;
}

export function isSyncEmbedder(embedder: Embedder): embedder is SyncEmbedder {
  return typeof (embedder as Partial<SyncEmbedder>).embedSync === 'function';
}

/** Cosine similarity of two L2-normalized vectors of equal dimension (0 when either is all zero). */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}

/** L2-normalizes in place (the zero vector stays zero). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i] * vector[i];
  if (sum === 0) return vector;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i] *= scale;
  return vector;
}
