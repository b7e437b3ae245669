/**
 * The history append as it was before issue #17's change (main `36bd768`): one script call per record
 * running ~15 Redis commands, five keys built per record with the array-join tenantKey, the ts parsed
 * three times. Kept only as the baseline of `memory-history-bench.ts`, measured in the same run as the
 * current RedisHistoryStore.append; it writes the same layout, under its own namespace.
 */
import type { ChainableCommander, Redis } from 'ioredis';
import { DEFAULT_HISTORY_LIMITS, type HistoryLimits, type HistoryRecord } from '@wayfinder/history';

// KEYS: rec, list, entry, agents, tenantRecords (or the list again for steps)
// ARGV: json, scoreMs, agentId, taskId, runId ('' = null), ts, seq ('' = none), retentionMs, maxList, maxTenant, isStep, cutoffMs
const APPEND = `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[8]) then return 0 end
local score = tonumber(ARGV[2])
local cutoff = ARGV[12]
redis.call('ZADD', KEYS[2], score, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. cutoff)
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(tonumber(ARGV[9]) + 1))
redis.call('PEXPIRE', KEYS[2], ARGV[8])
local last = redis.call('HGET', KEYS[3], 'lastSeenMs')
if (not last) or score >= tonumber(last) then
  redis.call('HSET', KEYS[3], 'taskId', ARGV[4], 'runId', ARGV[5], 'lastSeen', ARGV[6], 'lastSeenMs', ARGV[2])
end
local first = redis.call('HGET', KEYS[3], 'firstSeenMs')
if (not first) or score < tonumber(first) then
  redis.call('HSET', KEYS[3], 'firstSeen', ARGV[6], 'firstSeenMs', ARGV[2])
end
if ARGV[7] ~= '' then
  local seq = redis.call('HGET', KEYS[3], 'lastSeq')
  if (not seq) or tonumber(ARGV[7]) > tonumber(seq) then redis.call('HSET', KEYS[3], 'lastSeq', ARGV[7]) end
end
redis.call('PEXPIRE', KEYS[3], ARGV[8])
local seen = redis.call('ZSCORE', KEYS[4], ARGV[3])
if (not seen) or score > tonumber(seen) then redis.call('ZADD', KEYS[4], score, ARGV[3]) end
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', '(' .. cutoff)
redis.call('PEXPIRE', KEYS[4], ARGV[8])
if ARGV[11] == '0' then
  redis.call('ZADD', KEYS[5], score, ARGV[1])
  redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', '(' .. cutoff)
  redis.call('ZREMRANGEBYRANK', KEYS[5], 0, -(tonumber(ARGV[10]) + 1))
  redis.call('PEXPIRE', KEYS[5], ARGV[8])
end
return 1
`;

function tenantKey(tenantId: string, ...parts: string[]): string {
  return [`wf:{${encode(tenantId)}}`, ...parts.map(encode)].join(':');
}

function encode(part: string): string {
  return part.replace(/[%:{}]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

export class PerRecordHistoryAppend {
  private readonly limits: HistoryLimits;

  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    private readonly now: () => number = Date.now,
  ) {
    this.limits = DEFAULT_HISTORY_LIMITS;
    if (!('wfHistoryAppendPerRecord' in redis)) redis.defineCommand('wfHistoryAppendPerRecord', { numberOfKeys: 5, lua: APPEND });
  }

  private key(tenantId: string, ...parts: string[]): string {
    return tenantKey(tenantId, 'hist', this.namespace, ...parts);
  }

  async append(records: readonly HistoryRecord[]): Promise<number> {
    if (records.length === 0) return 0;
    const cutoff = this.now() - this.limits.retentionMs;
    const pipeline = this.redis.pipeline() as ChainableCommander & { wfHistoryAppendPerRecord(...args: Array<string | number>): unknown };
    const live = records.filter((r) => Date.parse(r.ts) >= cutoff);
    const tenants = new Set<string>();
    for (const r of live) {
      const step = r.kind === 'step';
      const list = this.key(r.tenantId, 'agent', r.agentId, step ? 'steps' : 'records');
      const ttl = Math.max(1, Date.parse(r.ts) + this.limits.retentionMs - this.now());
      pipeline.wfHistoryAppendPerRecord(
        this.key(r.tenantId, 'rec', r.id), list, this.key(r.tenantId, 'agent', r.agentId), this.key(r.tenantId, 'agents'), step ? list : this.key(r.tenantId, 'records'),
        JSON.stringify(r), Date.parse(r.ts), r.agentId, r.taskId, r.runId ?? '', r.ts, step ? r.seq : '', ttl,
        step ? this.limits.maxStepsPerAgent : this.limits.maxRecordsPerAgent, this.limits.maxRecordsPerTenant, step ? '1' : '0', cutoff,
      );
      tenants.add(r.tenantId);
    }
    if (tenants.size > 0) pipeline.sadd(`wf:hist:${this.namespace.replace(/[%:{}]/g, '_')}:tenants`, ...tenants);
    const results = (await pipeline.exec()) ?? [];
    let added = 0;
    results.forEach(([error, value], i) => {
      if (error) throw error;
      if (i < live.length && value === 1) added++;
    });
    return added;
  }
}
