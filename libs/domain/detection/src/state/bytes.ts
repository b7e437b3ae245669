/**
 * Little-endian byte writing and reading for the binary detector state (codec.ts, the drift detector's
 * state). The state is encoded after every batch for every touched agent, so the writer fills shared
 * slabs and copies typed arrays whole; short ASCII strings (run keys, tool names, report keys)
 * skip TextEncoder/TextDecoder, whose per-call cost is larger than the copy. The reader checks every
 * length against the bytes left: a cut or corrupted document is an error, never garbage state.
 */

/** True on every platform Node runs on in practice; the big-endian paths keep the format the same anyway. */
const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Documents are written into shared slabs, like Node's Buffer pool: a fresh 2 KB array per document costs more than writing it. */
const SLAB_BYTES = 64 * 1024;

export class ByteWriter {
  private bytes = new Uint8Array(SLAB_BYTES);
  private view = new DataView(this.bytes.buffer);
  /** Where the current document starts in the slab (8-byte aligned: checksum reads it as words). */
  private start = 0;
  /** End of what was written, in the slab. */
  private end = 0;

  /** Bytes of the current document so far. */
  get length(): number {
    return this.end - this.start;
  }

  /** Starts a new document (the previous one must have been finished or is discarded). */
  reset(): void {
    this.end = this.start;
  }

  /**
   * The document: a view of the slab that later documents never overwrite. A document kept for long keeps
   * its slab alive; callers that store many (the worker writes them to Redis and drops them) do not.
   */
  finish(): Uint8Array {
    const out = this.bytes.subarray(this.start, this.end);
    this.start = (this.end + 7) & ~7;
    this.end = this.start;
    return out;
  }

  u8(value: number): void {
    this.reserve(1);
    this.bytes[this.end++] = value;
  }

  u32(value: number): void {
    this.reserve(4);
    this.view.setUint32(this.end, value, true);
    this.end += 4;
  }

  i32(value: number): void {
    this.reserve(4);
    this.view.setInt32(this.end, value, true);
    this.end += 4;
  }

  f64(value: number): void {
    this.reserve(8);
    this.view.setFloat64(this.end, value, true);
    this.end += 8;
  }

  /** A u32 byte length, then the string as UTF-8. */
  string(value: string): void {
    const n = value.length;
    this.reserve(4 + n * 3);
    const start = this.end + 4;
    const bytes = this.bytes;
    let i = 0;
    for (; i < n; i++) {
      const c = value.charCodeAt(i);
      if (c >= 0x80) break;
      bytes[start + i] = c;
    }
    const written = i === n ? n : utf8.encodeInto(value, bytes.subarray(start)).written;
    this.view.setUint32(this.end, written, true);
    this.end = start + written;
  }

  /** Raw bytes, no length prefix. */
  raw(value: Uint8Array): void {
    this.reserve(value.length);
    this.bytes.set(value, this.end);
    this.end += value.length;
  }

  /** A one-byte string's char codes as raw bytes (each 0..255), no length prefix. */
  byteString(value: string): void {
    const n = value.length;
    this.reserve(n);
    const bytes = this.bytes;
    for (let i = 0; i < n; i++) bytes[this.end + i] = value.charCodeAt(i);
    this.end += n;
  }

  /** The first `count` words of `words`, 4 little-endian bytes each, no length prefix. */
  words(words: Int32Array, count: number): void {
    this.reserve(count * 4);
    if (HOST_LITTLE_ENDIAN) {
      this.bytes.set(new Uint8Array(words.buffer, words.byteOffset, count * 4), this.end);
    } else {
      for (let i = 0; i < count; i++) this.view.setInt32(this.end + i * 4, words[i], true);
    }
    this.end += count * 4;
  }

  /** Checksum of the document so far (see checksum). */
  checksum(): number {
    return checksum(this.bytes.subarray(this.start, this.end), this.end - this.start);
  }

  /** Moves the document to a new slab when `n` more bytes do not fit. */
  private reserve(n: number): void {
    if (this.end + n <= this.bytes.length) return;
    const length = this.end - this.start;
    const slab = new Uint8Array(Math.max(SLAB_BYTES, (length + n) * 2));
    slab.set(this.bytes.subarray(this.start, this.end));
    this.bytes = slab;
    this.view = new DataView(slab.buffer);
    this.start = 0;
    this.end = length;
  }
}

/** Thrown for any document that cannot be read back as written: truncated, corrupted, or not ours. */
export class CorruptStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CorruptStateError';
  }
}

export class ByteReader {
  private readonly bytes: Uint8Array;
  private readonly view: DataView;
  private pos: number;
  private readonly end: number;

  /** Reads `bytes` from `start` up to `end` (default: all of it); `what` names the document in errors. */
  constructor(
    bytes: Uint8Array,
    private readonly what: string,
    start = 0,
    end = bytes.length,
  ) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = start;
    this.end = end;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.pos++];
  }

  u32(): number {
    this.need(4);
    const value = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return value;
  }

  i32(): number {
    this.need(4);
    const value = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return value;
  }

  f64(): number {
    this.need(8);
    const value = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return value;
  }

  string(): string {
    const n = this.u32();
    this.need(n);
    const bytes = this.bytes;
    const start = this.pos;
    this.pos += n;
    let text = '';
    for (let i = start; i < start + n; i++) {
      const c = bytes[i];
      if (c >= 0x80) return this.decodeUtf8(start, n);
      text += String.fromCharCode(c);
    }
    return text;
  }

  /** A view of the next `n` bytes (valid as long as the input is). */
  view8(n: number): Uint8Array {
    this.need(n);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** Fills `words` from the next `words.length * 4` little-endian bytes. */
  wordsInto(words: Int32Array): void {
    const n = words.length * 4;
    this.need(n);
    if (HOST_LITTLE_ENDIAN) {
      new Uint8Array(words.buffer, words.byteOffset, n).set(this.bytes.subarray(this.pos, this.pos + n));
    } else {
      for (let i = 0; i < words.length; i++) words[i] = this.view.getInt32(this.pos + i * 4, true);
    }
    this.pos += n;
  }

  /** Throws unless every byte was read: trailing bytes mean the document is not what its header says. */
  expectEnd(): void {
    if (this.pos !== this.end) throw new CorruptStateError(`corrupt ${this.what}: ${this.end - this.pos} unexpected bytes at ${this.pos}`);
  }

  fail(message: string): never {
    throw new CorruptStateError(`corrupt ${this.what}: ${message} (at byte ${this.pos})`);
  }

  private need(n: number): void {
    if (this.pos + n > this.end) throw new CorruptStateError(`truncated ${this.what}: needs ${n} bytes at ${this.pos}, ${this.end - this.pos} left`);
  }

  private decodeUtf8(start: number, n: number): string {
    try {
      return strictUtf8.decode(this.bytes.subarray(start, start + n));
    } catch {
      return this.fail('invalid UTF-8 in a string');
    }
  }
}

// Scratch for checksums of inputs that are not 4-byte aligned (Redis replies are slices of a socket buffer).
let aligned = new Int32Array(1024);

/**
 * A Fletcher-style checksum of the first `length` bytes, over little-endian 32-bit words (the last one
 * zero-padded): two sums per word, so it runs at memory speed and still catches changed or swapped words.
 */
export function checksum(bytes: Uint8Array, length: number): number {
  const full = length >> 2;
  let words: Int32Array;
  if (HOST_LITTLE_ENDIAN && (bytes.byteOffset & 3) === 0) {
    words = new Int32Array(bytes.buffer, bytes.byteOffset, full);
  } else {
    if (aligned.length < full) aligned = new Int32Array(Math.max(full, aligned.length * 2));
    if (HOST_LITTLE_ENDIAN) new Uint8Array(aligned.buffer, 0, full * 4).set(bytes.subarray(0, full * 4));
    else {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let i = 0; i < full; i++) aligned[i] = view.getInt32(i * 4, true);
    }
    words = aligned;
  }
  let a = 1;
  let b = 0;
  for (let i = 0; i < full; i++) {
    a = (a + words[i]) | 0;
    b = (b + a) | 0;
  }
  let tail = 0;
  for (let i = full * 4; i < length; i++) tail |= bytes[i] << ((i & 3) * 8);
  a = (a + tail) | 0;
  b = (b + a) | 0;
  // b mixed (murmur3's finalizer) before joining a: a change confined to a word's top bits must not cancel out.
  b ^= b >>> 16;
  b = Math.imul(b, 0x85ebca6b);
  b ^= b >>> 13;
  b = Math.imul(b, 0xc2b2ae35);
  b ^= b >>> 16;
  return (a ^ b) >>> 0;
}
