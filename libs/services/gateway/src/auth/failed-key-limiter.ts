/**
 * Failed key checks per client address (issue #29: 500 wrong keys in 4 s never met a 429): a bearer or
 * header key that resolves to no tenant, or a wrong key typed into the dashboard's login form, counts as a
 * failure of the socket's address. `limit` failures within `windowMs` block that address's key checks
 * (429 + Retry-After, valid keys included, so guessing cannot go on) for a penalty that doubles each time
 * the address hits the limit again (1 min, 2, 4 … at most 1 h); a quiet hour forgets it.
 */
import { ApiError } from '../http/api-error';

interface AddressRecord {
  failures: number[];
  blockedUntil: number;
  strikes: number;
  last: number;
}

export interface FailedKeyLimiterOptions {
  limit?: number;
  windowMs?: number;
  basePenaltyMs?: number;
  maxPenaltyMs?: number;
  /** Addresses remembered at most (the least recently failing ones are forgotten first). */
  maxAddresses?: number;
  now?: () => number;
}

export class FailedKeyLimiter {
  private readonly addresses = new Map<string, AddressRecord>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly basePenaltyMs: number;
  private readonly maxPenaltyMs: number;
  private readonly maxAddresses: number;
  private readonly now: () => number;

  constructor(options: FailedKeyLimiterOptions = {}) {
    this.limit = options.limit ?? 10;
    this.windowMs = options.windowMs ?? 60_000;
    this.basePenaltyMs = options.basePenaltyMs ?? 60_000;
    this.maxPenaltyMs = options.maxPenaltyMs ?? 60 * 60_000;
    this.maxAddresses = options.maxAddresses ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  /** Throws 429 with Retry-After while the address is blocked; call before checking a key. */
  assertAllowed(address: string | undefined): void {
    const record = this.addresses.get(address ?? '');
    const wait = record ? record.blockedUntil - this.now() : 0;
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      throw new ApiError(429, { error: `too many failed key checks from this address: retry in ${seconds} s` }, seconds);
    }
  }

  /** Counts a failed key check of the address; may start its block. */
  fail(address: string | undefined): void {
    const key = address ?? '';
    const now = this.now();
    let record = this.addresses.get(key);
    if (record && now - record.last > 60 * 60_000) record = undefined;
    if (!record) record = { failures: [], blockedUntil: 0, strikes: 0, last: now };
    this.addresses.delete(key); // re-inserted last: the map's order is the order of last failure
    this.addresses.set(key, record);
    record.last = now;
    record.failures = record.failures.filter((t) => now - t < this.windowMs);
    record.failures.push(now);
    if (record.failures.length >= this.limit) {
      record.blockedUntil = now + Math.min(this.maxPenaltyMs, this.basePenaltyMs * 2 ** record.strikes);
      record.strikes += 1;
      record.failures = [];
    }
    if (this.addresses.size > this.maxAddresses) this.addresses.delete(this.addresses.keys().next().value as string);
  }
}
