/**
 * The Embedder port (DESIGN §5.6). Embedding is synchronous on purpose: the built-in hashing embedder
 * runs on the detector hot path (≥100k events/s). Vectors are L2-normalized, so cosine = dot product.
 */
export interface Embedder {
  /** Identifies the embedder; thresholds in policies are calibrated per embedder id. */
  readonly id: string;
  readonly dimension: number;
  embed(text: string): Float32Array;
}

/** Cosine similarity of two L2-normalized vectors of equal dimension (0 when either is all zero). */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}
