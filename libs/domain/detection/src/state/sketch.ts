/**
 * Compact vector sketches for per-agent state: an embedding folded to 128 dimensions and quantized to
 * 4 bits per dimension (two per byte), so a remembered message or call costs 64 bytes instead of a
 * 1 KiB Float32Array. Cosine on sketches stays within a few hundredths of the full vectors'.
 */
export const SKETCH_DIMS = 128;
export const SKETCH_BYTES = SKETCH_DIMS / 2;
const LEVELS = 7; // quantized values in -7..7
const CLIP_SIGMAS = 3;

function quantize(x: number): number {
  const q = Math.round(x);
  return q > LEVELS ? LEVELS : q < -LEVELS ? -LEVELS : q;
}

// Scratch space reused by every call: detection is synchronous, so no two calls overlap.
const folded = new Float32Array(SKETCH_DIMS);

export function sketchInto(vector: Float32Array, out: Uint8Array, offset = 0): void {
  folded.fill(0);
  for (let i = 0; i < vector.length; i++) folded[i & (SKETCH_DIMS - 1)] += vector[i];
  let sum = 0;
  for (let i = 0; i < SKETCH_DIMS; i++) sum += folded[i] * folded[i];
  // Scaled to the spread of the values, not their maximum: one large bucket must not flatten the rest.
  const scale = sum === 0 ? 0 : LEVELS / (CLIP_SIGMAS * Math.sqrt(sum / SKETCH_DIMS));
  for (let i = 0; i < SKETCH_BYTES; i++) {
    const lo = quantize(folded[2 * i] * scale) + 8;
    const hi = quantize(folded[2 * i + 1] * scale) + 8;
    out[offset + i] = lo | (hi << 4);
  }
}

/** Cosine of two sketches (0 when either is all zero). */
export function sketchCosine(a: Uint8Array, aOffset: number, b: Uint8Array, bOffset: number): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < SKETCH_BYTES; i++) {
    const x = a[aOffset + i];
    const y = b[bOffset + i];
    const x0 = (x & 15) - 8;
    const x1 = (x >> 4) - 8;
    const y0 = (y & 15) - 8;
    const y1 = (y >> 4) - 8;
    dot += x0 * y0 + x1 * y1;
    na += x0 * x0 + x1 * x1;
    nb += y0 * y0 + y1 * y1;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** True for the sketch of the zero vector (or a never-written slot). */
export function isZeroSketch(a: Uint8Array, offset: number): boolean {
  for (let i = 0; i < SKETCH_BYTES; i++) {
    const v = a[offset + i];
    if (v !== 0x88 && v !== 0) return false;
  }
  return true;
}
