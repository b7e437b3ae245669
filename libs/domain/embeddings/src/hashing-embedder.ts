/**
 * The built-in embedder (DESIGN §5.6): signed feature hashing of word unigrams, word bigrams and character
 * trigrams, with CJK text segmented into character unigrams and bigrams. Deterministic, no model, no
 * global cache, fast enough for the detector hot path. Thresholds in policies are calibrated for it.
 */
import { FNV1A_OFFSET_BASIS as CONTRACTS_FNV1A_OFFSET_BASIS, fnv1aStep as contractsFnv1aStep } from '@wayfinder/contracts';
import { normalize, type SyncEmbedder } from './embedder';

/**
 * Bound once: compiled to CommonJS, each use of an import of the contracts barrel (`export *`) goes through
 * a re-export getter, and these run for every character and word embedded (~3 µs per pipeline step, issue #17).
 */
const fnv1aStep = contractsFnv1aStep;
const FNV1A_OFFSET_BASIS = CONTRACTS_FNV1A_OFFSET_BASIS;

export interface HashingEmbedderOptions {
  /** Vector dimension (default 256). */
  dimension?: number;
  /** Only the first `maxChars` characters are embedded: long tool outputs say what they are early. */
  maxChars?: number;
}

const WORD_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.7;
const TRIGRAM_WEIGHT = 0.25;
const CJK_UNIGRAM_WEIGHT = 0.6;
const CJK_BIGRAM_WEIGHT = 1;


function isCjk(code: number): boolean {
  return (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0xac00 && code <= 0xd7af) ||
    (code >= 0xf900 && code <= 0xfaff)
  );
}

function isWordChar(code: number): boolean {
  if (code < 128) {
    return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
  }
  // Letters and digits beyond ASCII (accented Latin, Cyrillic, Greek, …); punctuation ranges excluded.
  return !(code >= 0x2000 && code <= 0x2bff) && !(code >= 0x3000 && code <= 0x303f) && !(code >= 0xff00 && code <= 0xff65) && code !== 0xa0;
}

export class HashingEmbedder implements SyncEmbedder {
  readonly id: string;
  readonly name = 'hashing' as const;
  readonly dimension: number;
  private readonly maxChars: number;

  constructor(options: HashingEmbedderOptions = {}) {
    this.dimension = options.dimension ?? 256;
    this.maxChars = options.maxChars ?? 8192;
    if (!Number.isInteger(this.dimension) || this.dimension < 8) throw new Error('dimension must be an integer ≥ 8');
    this.id = `hashing-v1-${this.dimension}`;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((text) => this.embedSync(text));
  }

  embedSync(text: string): Float32Array {
    return this.embedInto(text, new Float32Array(this.dimension));
  }

  /** Embeds into a caller-owned vector of `dimension` floats (hot paths reuse one buffer). */
  embedInto(text: string, vector: Float32Array): Float32Array {
    vector.fill(0);
    if (typeof text !== 'string' || text.length === 0) return vector;
    const source = (text.length > this.maxChars ? text.slice(0, this.maxChars) : text).toLowerCase();
    let previousWord = 0; // hash of the previous word, 0 when none (a bigram needs two words in a row)
    let previousCjk = -1; // previous CJK char code, -1 when the previous char was not CJK
    let i = 0;
    const n = source.length;
    while (i < n) {
      const code = source.charCodeAt(i);
      if (isCjk(code)) {
        this.add(vector, fnv1aStep(0x5bd1e995, code), CJK_UNIGRAM_WEIGHT);
        if (previousCjk >= 0) this.add(vector, Math.imul((previousCjk * 65599) ^ code, 0x2c1b3c6d) ^ 0x27d4eb2f, CJK_BIGRAM_WEIGHT);
        previousCjk = code;
        previousWord = 0;
        i++;
        continue;
      }
      previousCjk = -1;
      if (!isWordChar(code)) {
        // Whitespace keeps the word chain; sentence punctuation breaks it.
        if (code !== 32 && code !== 9 && code !== 10 && code !== 13) previousWord = 0;
        i++;
        continue;
      }
      const start = i;
      let h = FNV1A_OFFSET_BASIS;
      while (i < n) {
        const c = source.charCodeAt(i);
        if (isCjk(c) || !isWordChar(c)) break;
        h = fnv1aStep(h, c);
        i++;
      }
      this.add(vector, h, WORD_WEIGHT);
      if (previousWord !== 0) this.add(vector, Math.imul(previousWord ^ (h >>> 7), 0x9e3779b1) ^ h, BIGRAM_WEIGHT);
      previousWord = h | 1;
      this.addTrigrams(vector, source, start, i);
    }
    return normalize(vector);
  }

  /** Character trigrams of one word with boundary marks, so "search"/"searches" stay close. */
  private addTrigrams(vector: Float32Array, source: string, start: number, end: number): void {
    const len = end - start;
    if (len < 3) return;
    for (let j = start - 1; j + 2 <= end; j++) {
      const a = j < start ? 35 : source.charCodeAt(j);
      const b = source.charCodeAt(j + 1);
      const c = j + 2 === end ? 35 : source.charCodeAt(j + 2);
      this.add(vector, fnv1aStep(fnv1aStep(fnv1aStep(0x3c6ef372, a), b), c), TRIGRAM_WEIGHT);
    }
  }

  private add(vector: Float32Array, hash: number, weight: number): void {
    // Final avalanche so nearby hashes spread over buckets; the top bit gives the sign.
    let h = hash ^ (hash >>> 16);
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    const index = (h >>> 0) % this.dimension;
    vector[index] += (h & 0x80000000) !== 0 ? -weight : weight;
  }
}
