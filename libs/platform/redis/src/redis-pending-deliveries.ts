/**
 * PendingDeliveries of the escalation notifier on Redis (distributed mode; the port and its contract are in
 * @wayfinder/service-operations pending-deliveries.ts): the escalations waiting in the notifier's lanes,
 * each owned by one notifier instance under a lease it renews. Two hashes under one hash tag (one Redis
 * Cluster slot, so one script reads both): `…:records` id → the delivery as JSON, `…:leases` id →
 * `<lease end ms> <owner>`. A claim is one script (lease still out → this owner), so of two instances
 * claiming at once, one gets each record. Bounded by the notifier's lanes (maxWaitingTotal per instance).
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Escalation } from '@wayfinder/contracts';

/** The shape of @wayfinder/service-operations' PendingDelivery (that lib depends on this one, not back). */
export interface PendingDeliveryRecord {
  readonly escalation: Escalation;
  readonly source?: { readonly topic: string; readonly partition: number; readonly offset: string; readonly key?: string };
}

export interface RedisPendingDeliveriesOptions {
  /** Topic prefix of the deployment (environments sharing a Redis). */
  readonly namespace?: string;
  /** This instance's name (default: random); a restarted instance is a new owner. */
  readonly owner?: string;
  /** How long a record stays this instance's without a renewal (default 60 s). */
  readonly leaseMs?: number;
  /** Clock for the leases (tests move it). */
  readonly now?: () => number;
}

/** Renews the caller's leases among ARGV[3..]: a record removed or claimed by another owner is not revived. */
const RENEW = `
local n = 0
for i = 3, #ARGV do
  local lease = redis.call('HGET', KEYS[1], ARGV[i])
  if lease and string.sub(lease, string.find(lease, ' ') + 1) == ARGV[1] then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[2] .. ' ' .. ARGV[1])
    n = n + 1
  end
end
return n`;

/** Takes ARGV[4] for owner ARGV[1] (lease to ARGV[2]) when its lease ended before ARGV[3]: returns the record, or false. */
const CLAIM = `
local lease = redis.call('HGET', KEYS[1], ARGV[4])
local record = redis.call('HGET', KEYS[2], ARGV[4])
if not record then
  redis.call('HDEL', KEYS[1], ARGV[4])
  return false
end
if lease and tonumber(string.sub(lease, 1, string.find(lease, ' ') - 1)) >= tonumber(ARGV[3]) then return false end
redis.call('HSET', KEYS[1], ARGV[4], ARGV[2] .. ' ' .. ARGV[1])
return record`;

export class RedisPendingDeliveries {
  private readonly records: string;
  private readonly leases: string;
  readonly owner: string;
  private readonly leaseMs: number;
  private readonly now: () => number;
  /** Ids this instance owns (added or claimed, not yet removed): what `renew` renews. */
  private readonly owned = new Set<string>();

  constructor(
    private readonly redis: Redis,
    options: RedisPendingDeliveriesOptions = {},
  ) {
    const tag = `{pending-deliveries:${encodeURIComponent(options.namespace ?? '')}}`;
    this.records = `wf:${tag}:records`;
    this.leases = `wf:${tag}:leases`;
    this.owner = options.owner ?? randomBytes(8).toString('hex');
    this.leaseMs = options.leaseMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** How often the owner should renew: well within the lease. */
  get renewEveryMs(): number {
    return Math.max(1, Math.floor(this.leaseMs / 3));
  }

  async add(delivery: PendingDeliveryRecord): Promise<void> {
    const id = idOf(delivery.escalation.tenantId, delivery.escalation.eventId);
    this.owned.add(id);
    await this.redis.multi().hset(this.records, id, JSON.stringify(delivery)).hset(this.leases, id, this.lease()).exec();
  }

  async remove(tenantId: string, escalationId: string): Promise<void> {
    const id = idOf(tenantId, escalationId);
    this.owned.delete(id);
    await this.redis.multi().hdel(this.records, id).hdel(this.leases, id).exec();
  }

  async renew(): Promise<void> {
    const ids = [...this.owned];
    const until = String(this.now() + this.leaseMs);
    for (let i = 0; i < ids.length; i += 500) await this.redis.eval(RENEW, 1, this.leases, this.owner, until, ...ids.slice(i, i + 500));
  }

  async claimOrphans(): Promise<PendingDeliveryRecord[]> {
    const now = this.now();
    const leases = await this.redis.hgetall(this.leases);
    const records = await this.redis.hkeys(this.records);
    // Records without a lease (none are written so, but a lease deleted by hand must not strand one) are orphans too.
    const candidates = records.filter((id) => !this.owned.has(id) && !(leases[id] !== undefined && Number(leases[id].slice(0, leases[id].indexOf(' '))) >= now));
    const claimed: PendingDeliveryRecord[] = [];
    for (const id of candidates) {
      const record = (await this.redis.eval(CLAIM, 2, this.leases, this.records, this.owner, String(now + this.leaseMs), String(now), id)) as string | null;
      if (typeof record !== 'string') continue;
      this.owned.add(id);
      claimed.push(JSON.parse(record) as PendingDeliveryRecord);
    }
    return claimed;
  }

  private lease(): string {
    return `${this.now() + this.leaseMs} ${this.owner}`;
  }
}

/** The same id as @wayfinder/service-operations' pendingId: JSON of the pair. */
function idOf(tenantId: string, escalationId: string): string {
  return JSON.stringify([tenantId, escalationId]);
}
