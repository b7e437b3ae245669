/**
 * Compact vector sketches for per-agent state: an embedding folded to 128 dimensions and quantized to
 * 4 bits per dimension, eight to an int32 word, so a remembered message or call costs 64 bytes instead of
 * a 1 KiB Float32Array and lives inside the run's single Int32Array (no byte view to pay for). Word w
 * holds dimensions 8w..8w+7, lowest nibble first: read as little-endian bytes it is byte i = dimension 2i
 * (low nibble) and 2i+1 (high nibble), the layout the state codec exports. Cosine on sketches stays
 * within a few hundredths of the full vectors'.
 */
export const SKETCH_DIMS = 128;
export const SKETCH_BYTES = SKETCH_DIMS / 2;
export const SKETCH_WORDS = SKETCH_DIMS / 8;
const LEVELS = 7; // quantized values in -7..7
const CLIP_SIGMAS = 3;
/** Every nibble at 8 (the quantized zero). */
const ZERO_WORD = 0x88888888 | 0;

function quantize(x: number): number {
  const q = Math.round(x);
  return q > LEVELS ? LEVELS : q < -LEVELS ? -LEVELS : q;
}

// Scratch space reused by every call: detection is synchronous, so no two calls overlap.
const folded = new Float32Array(SKETCH_DIMS);

export function sketchInto(vector: Float32Array, out: Int32Array, offset = 0): void {
  folded.fill(0);
  for (let i = 0; i < vector.length; i++) folded[i & (SKETCH_DIMS - 1)] += vector[i];
  let sum = 0;
  for (let i = 0; i < SKETCH_DIMS; i++) sum += folded[i] * folded[i];
  // Scaled to the spread of the values, not their maximum: one large bucket must not flatten the rest.
  const scale = sum === 0 ? 0 : LEVELS / (CLIP_SIGMAS * Math.sqrt(sum / SKETCH_DIMS));
  for (let w = 0; w < SKETCH_WORDS; w++) {
    let word = 0;
    for (let k = 0; k < 8; k++) word |= (quantize(folded[w * 8 + k] * scale) + 8) << (k * 4);
    out[offset + w] = word;
  }
}

/** Cosine of two sketches (0 when either is all zero). */
export function sketchCosine(a: Int32Array, aOffset: number, b: Int32Array, bOffset: number): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let w = 0; w < SKETCH_WORDS; w++) {
    const x = a[aOffset + w];
    const y = b[bOffset + w];
    for (let k = 0; k < 32; k += 4) {
      const xi = ((x >>> k) & 15) - 8;
      const yi = ((y >>> k) & 15) - 8;
      dot += xi * yi;
      na += xi * xi;
      nb += yi * yi;
    }
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** True for the sketch of the zero vector (or a never-written slot). */
export function isZeroSketch(a: Int32Array, offset: number): boolean {
  for (let w = 0; w < SKETCH_WORDS; w++) {
    const v = a[offset + w];
    if (v === ZERO_WORD || v === 0) continue;
    // Byte by byte, as before words: a mix of never-written (0) and zero-valued (0x88) bytes is still zero.
    for (let k = 0; k < 32; k += 8) {
      const byte = (v >>> k) & 255;
      if (byte !== 0x88 && byte !== 0) return false;
    }
  }
  return true;
}

/** Byte `i` of a sketch held in words (the codec's export layout, independent of platform endianness). */
export function sketchByte(words: Int32Array, offset: number, i: number): number {
  return (words[offset + (i >> 2)] >>> ((i & 3) * 8)) & 255;
}

/** Writes byte `i` of a sketch held in words (the inverse of sketchByte). */
export function setSketchByte(words: Int32Array, offset: number, i: number, byte: number): void {
  const shift = (i & 3) * 8;
  const w = offset + (i >> 2);
  words[w] = (words[w] & ~(255 << shift)) | ((byte & 255) << shift);
}

/** Copies a sketch between word buffers (a loop: a subarray view would allocate per call). */
export function copySketch(from: Int32Array, fromOffset: number, to: Int32Array, toOffset: number): void {
  for (let w = 0; w < SKETCH_WORDS; w++) to[toOffset + w] = from[fromOffset + w];
}

/**
 * A sketch as a one-byte string of its SKETCH_BYTES bytes (the export layout), for state that keeps a
 * sketch on its own: 80 bytes on the heap where an Int32Array of 16 words costs ~260 (the typed array,
 * its buffer object and its elements). Immutable: a new sketch is a new string.
 */
export function sketchString(words: Int32Array, offset = 0): string {
  for (let i = 0; i < SKETCH_BYTES; i++) stringBytes[i] = sketchByte(words, offset, i);
  // One call over all the bytes: a flat string (concatenating would build a rope of small strings).
  return String.fromCharCode.apply(null, stringBytes as unknown as number[]);
}
const stringBytes = new Uint8Array(SKETCH_BYTES);

/** The sketch of `sketchString` back in words, at `offset` of `out`. */
export function sketchFromString(value: string, out: Int32Array, offset = 0): void {
  for (let w = 0; w < SKETCH_WORDS; w++) {
    const i = w * 4;
    out[offset + w] = (value.charCodeAt(i) & 255) | ((value.charCodeAt(i + 1) & 255) << 8) | ((value.charCodeAt(i + 2) & 255) << 16) | ((value.charCodeAt(i + 3) & 255) << 24);
  }
}

/** The never-written sketch (every byte 0) as a string: shared by every run that has none yet. */
export const EMPTY_SKETCH_STRING = String.fromCharCode(...new Array<number>(SKETCH_BYTES).fill(0));
