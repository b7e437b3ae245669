/**
 * Fast, portable, non-cryptographic string hashes for fingerprints (no node:crypto: domain libs run
 * anywhere). 32-bit FNV-1a with a murmur finalizer; collisions inside a 30-record window are negligible.
 */
import { FNV1A_OFFSET_BASIS, fnv1a32 as contractsFnv1a32 } from '@wayfinder/contracts';

/** Bound once, not read through the contracts barrel's re-export getter on every hash (see hashing-embedder.ts). */
const fnv1a32 = contractsFnv1a32;

export function hash32(text: string, seed = FNV1A_OFFSET_BASIS): number {
  let h = fnv1a32(text, seed) | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  // Zero is reserved for "no value" in the compact history.
  return h === 0 ? 1 : h;
}

/** A hash as 8 hex digits, for evidence and pattern keys. */
export function hashHex(hash: number): string {
  return (hash >>> 0).toString(16).padStart(8, '0');
}
