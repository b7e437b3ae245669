/**
 * CorrectionLog on Redis (distributed mode): one stream per agent under its tenant
 * (`wf:{tenant}:corrections:<ns>:<agent>`, MAXLEN per agent, entries older than the TTL trimmed by MINID
 * and the key expiring with its last write), the stream id as the cursor, and per correction an index
 * key (eventId → stream id) that makes a redelivered correction a no-op and finds it for an ack.
 */
import type { Redis } from 'ioredis';
import type { Correction } from '@wayfinder/contracts';
import {
  cursorTime,
  DEFAULT_CORRECTION_LOG_LIMITS,
  type AckOutcome,
  type CorrectionLog,
  type CorrectionLogLimits,
  type LoggedCorrection,
} from '@wayfinder/tenancy';
import { tenantKey } from './keys';

// KEYS: stream, index; ARGV: json, maxlen, ttl ms, oldest id kept (ms).
const APPEND = `
local existing = redis.call('GET', KEYS[2])
if existing then return existing end
redis.call('XTRIM', KEYS[1], 'MINID', ARGV[4])
local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], '*', 'c', ARGV[1])
redis.call('SET', KEYS[2], id, 'PX', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return id
`;

export interface RedisCorrectionLogOptions extends Partial<CorrectionLogLimits> {
  namespace?: string;
  now?: () => number;
}

export class RedisCorrectionLog implements CorrectionLog {
  private readonly namespace: string;
  private readonly limits: CorrectionLogLimits;
  private readonly now: () => number;

  constructor(
    private readonly redis: Redis,
    options: RedisCorrectionLogOptions = {},
  ) {
    this.namespace = options.namespace ?? '';
    this.limits = { maxPerAgent: options.maxPerAgent ?? DEFAULT_CORRECTION_LOG_LIMITS.maxPerAgent, ttlMs: options.ttlMs ?? DEFAULT_CORRECTION_LOG_LIMITS.ttlMs };
    this.now = options.now ?? Date.now;
  }

  private streamKey(tenantId: string, agentId: string): string {
    return tenantKey(tenantId, 'corrections', this.namespace, agentId);
  }

  private indexKey(tenantId: string, agentId: string, correctionId: string): string {
    return tenantKey(tenantId, 'correction', this.namespace, agentId, correctionId);
  }

  private ackKey(tenantId: string, agentId: string, correctionId: string): string {
    return tenantKey(tenantId, 'correction-ack', this.namespace, agentId, correctionId);
  }

  private oldestKept(): string {
    return String(Math.max(0, this.now() - this.limits.ttlMs));
  }

  async append(corrections: readonly Correction[]): Promise<void> {
    if (corrections.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const c of corrections) {
      pipeline.eval(APPEND, 2, this.streamKey(c.tenantId, c.agentId), this.indexKey(c.tenantId, c.agentId, c.eventId), JSON.stringify(c), this.limits.maxPerAgent, this.limits.ttlMs, this.oldestKept());
    }
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([error]) => error);
    if (failed) throw failed[0] as Error;
  }

  async after(tenantId: string, agentId: string, cursor: string | undefined, limit: number): Promise<LoggedCorrection[]> {
    const entries = await this.redis.xrange(this.streamKey(tenantId, agentId), cursor === undefined ? '-' : `(${cursor}`, '+', 'COUNT', limit + 0);
    return this.decode(entries, tenantId, agentId);
  }

  async find(tenantId: string, agentId: string, correctionId: string): Promise<LoggedCorrection | undefined> {
    const id = await this.redis.get(this.indexKey(tenantId, agentId, correctionId));
    if (!id) return undefined;
    const [entry] = this.decode(await this.redis.xrange(this.streamKey(tenantId, agentId), id, id), tenantId, agentId);
    return entry?.correction.eventId === correctionId ? entry : undefined;
  }

  async ack(tenantId: string, agentId: string, correctionId: string, outcome: AckOutcome): Promise<boolean> {
    if (!(await this.find(tenantId, agentId, correctionId))) return false;
    await this.redis.set(this.ackKey(tenantId, agentId, correctionId), outcome, 'PX', this.limits.ttlMs);
    return true;
  }

  async ackOf(tenantId: string, agentId: string, correctionId: string): Promise<AckOutcome | undefined> {
    if (!(await this.find(tenantId, agentId, correctionId))) return undefined;
    const outcome = await this.redis.get(this.ackKey(tenantId, agentId, correctionId));
    return outcome === 'applied' || outcome === 'ignored' ? outcome : undefined;
  }

  private decode(entries: Array<[string, string[]]>, tenantId: string, agentId: string): LoggedCorrection[] {
    const oldest = this.now() - this.limits.ttlMs;
    const out: LoggedCorrection[] = [];
    for (const [id, fields] of entries) {
      if (cursorTime(id) < oldest) continue;
      const json = fields[fields.indexOf('c') + 1];
      const correction = JSON.parse(json) as Correction;
      // Written only from the validated corrections topic; the tenant and agent are checked anyway.
      if (correction.tenantId === tenantId && correction.agentId === agentId) out.push({ cursor: id, correction });
    }
    return out;
  }
}
