/**
 * HistoryStore on Redis (DESIGN §13). Chosen over PostgreSQL because every deployment already runs Redis
 * (maps, detector state, working memory), the reads are per tenant and per agent by time (sorted sets
 * answer them directly), and retention is a TTL rather than a cleanup job. Layout, all under the tenant
 * (`wf:{tenant}:hist:<ns>:…`, one Cluster slot per tenant):
 * - `rec:<id>`: the record's JSON, PX = retention; `SET NX` on it makes an append idempotent;
 * - `agent:<agentId>:steps` / `agent:<agentId>:records`: sorted sets by ts of the record JSON, trimmed to
 *   their bounds and to the retention on every write;
 * - `agent:<agentId>`: hash of the agent entry (task, run, first/last seen, last seq);
 * - `agents`: sorted set of agent ids by last seen; `records`: the tenant's non-step records, bounded;
 * - outside any tenant, `wf:hist:<ns>:tenants`: the tenant ids (for the local operator's overview).
 * One script per record does it all atomically (EVALSHA: the script is sent to the server once).
 */
import type { ChainableCommander, Redis } from 'ioredis';
import {
  compareRecords,
  DEFAULT_HISTORY_LIMITS,
  selectRecords,
  type AgentEntry,
  type HistoryLimits,
  type HistoryQuery,
  type HistoryRecord,
  type HistoryStore,
} from '@wayfinder/history';
import { tenantKey } from './keys';

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

export interface RedisHistoryStoreOptions extends Partial<HistoryLimits> {
  /** Separates deployments (and test runs) sharing one Redis. */
  namespace?: string;
  now?: () => number;
}

export class RedisHistoryStore implements HistoryStore {
  private readonly limits: HistoryLimits;
  private readonly namespace: string;
  private readonly now: () => number;

  constructor(
    private readonly redis: Redis,
    options: RedisHistoryStoreOptions = {},
  ) {
    this.limits = { ...DEFAULT_HISTORY_LIMITS, ...options };
    this.namespace = options.namespace ?? '';
    this.now = options.now ?? Date.now;
    if (!('wfHistoryAppend' in redis)) redis.defineCommand('wfHistoryAppend', { numberOfKeys: 5, lua: APPEND });
  }

  private key(tenantId: string, ...parts: string[]): string {
    return tenantKey(tenantId, 'hist', this.namespace, ...parts);
  }

  private tenantsKey(): string {
    return `wf:hist:${this.namespace.replace(/[%:{}]/g, '_')}:tenants`;
  }

  async append(records: readonly HistoryRecord[]): Promise<number> {
    if (records.length === 0) return 0;
    const cutoff = this.cutoff();
    const pipeline = this.redis.pipeline() as ChainableCommander & { wfHistoryAppend(...args: Array<string | number>): unknown };
    const live = records.filter((r) => Date.parse(r.ts) >= cutoff);
    const tenants = new Set<string>();
    for (const r of live) {
      const step = r.kind === 'step';
      const list = this.key(r.tenantId, 'agent', r.agentId, step ? 'steps' : 'records');
      // Remaining retention of this record: it expires when it would drop out of reads.
      const ttl = Math.max(1, Date.parse(r.ts) + this.limits.retentionMs - this.now());
      // EVALSHA of the script loaded once (ioredis loads it when the server does not know it), not its source per record.
      pipeline.wfHistoryAppend(
        this.key(r.tenantId, 'rec', r.id), list, this.key(r.tenantId, 'agent', r.agentId), this.key(r.tenantId, 'agents'), step ? list : this.key(r.tenantId, 'records'),
        JSON.stringify(r), Date.parse(r.ts), r.agentId, r.taskId, r.runId ?? '', r.ts, step ? r.seq : '', ttl,
        step ? this.limits.maxStepsPerAgent : this.limits.maxRecordsPerAgent, this.limits.maxRecordsPerTenant, step ? '1' : '0', cutoff,
      );
      tenants.add(r.tenantId);
    }
    // The tenant list once per tenant of the batch, after the scripts.
    if (tenants.size > 0) pipeline.sadd(this.tenantsKey(), ...tenants);
    const results = (await pipeline.exec()) ?? [];
    let added = 0;
    results.forEach(([error, value], i) => {
      if (error) throw error;
      // The scripts' answers come first (the tenant list's SADD last).
      if (i < live.length && value === 1) added++;
    });
    return added;
  }

  async agents(tenantId: string, query: { taskId?: string; since?: number } = {}): Promise<AgentEntry[]> {
    const min = Math.max(this.cutoff(), query.since ?? -Infinity);
    const ids = await this.redis.zrevrangebyscore(this.key(tenantId, 'agents'), '+inf', min);
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.key(tenantId, 'agent', id));
    const results = (await pipeline.exec()) ?? [];
    const entries: AgentEntry[] = [];
    results.forEach(([error, hash], i) => {
      if (error) throw error;
      const entry = toEntry(ids[i], hash as Record<string, string>);
      if (entry && (query.taskId === undefined || entry.taskId === query.taskId)) entries.push(entry);
    });
    return entries.sort((a, b) => Date.parse(b.lastSeen) - Date.parse(a.lastSeen) || (a.agentId < b.agentId ? -1 : 1));
  }

  async agent(tenantId: string, agentId: string): Promise<AgentEntry | undefined> {
    const entry = toEntry(agentId, await this.redis.hgetall(this.key(tenantId, 'agent', agentId)));
    return entry && Date.parse(entry.lastSeen) >= this.cutoff() ? entry : undefined;
  }

  async agentHistory(tenantId: string, agentId: string, query: HistoryQuery = {}): Promise<HistoryRecord[]> {
    const wantsSteps = !query.kinds || query.kinds.includes('step');
    const wantsOthers = !query.kinds || query.kinds.some((k) => k !== 'step');
    const lists: string[] = [];
    if (wantsSteps) lists.push(this.key(tenantId, 'agent', agentId, 'steps'));
    if (wantsOthers) lists.push(this.key(tenantId, 'agent', agentId, 'records'));
    return this.read(tenantId, lists, query);
  }

  async tenantHistory(tenantId: string, query: HistoryQuery = {}): Promise<HistoryRecord[]> {
    return this.read(tenantId, [this.key(tenantId, 'records')], { ...query, kinds: query.kinds?.filter((k) => k !== 'step') });
  }

  async get(tenantId: string, id: string): Promise<HistoryRecord | undefined> {
    const json = await this.redis.get(this.key(tenantId, 'rec', id));
    const record = json ? parseRecord(json, tenantId) : undefined;
    return record && Date.parse(record.ts) >= this.cutoff() ? record : undefined;
  }

  async tenants(): Promise<string[]> {
    const ids = await this.redis.smembers(this.tenantsKey());
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.zcount(this.key(id, 'agents'), this.cutoff(), '+inf');
    const counts = (await pipeline.exec()) ?? [];
    return ids.filter((_, i) => Number(counts[i][1]) > 0).sort();
  }

  private async read(tenantId: string, lists: string[], query: HistoryQuery): Promise<HistoryRecord[]> {
    const min = Math.max(this.cutoff(), query.since ?? -Infinity);
    const max = query.until ?? '+inf';
    const pipeline = this.redis.pipeline();
    for (const list of lists) pipeline.zrangebyscore(list, min, max);
    const results = (await pipeline.exec()) ?? [];
    const records: HistoryRecord[] = [];
    for (const [error, members] of results) {
      if (error) throw error;
      for (const json of members as string[]) {
        const record = parseRecord(json, tenantId);
        if (record) records.push(record);
      }
    }
    return selectRecords(records.sort(compareRecords), { ...query, since: min });
  }

  private cutoff(): number {
    return this.now() - this.limits.retentionMs;
  }
}

function toEntry(agentId: string, hash: Record<string, string>): AgentEntry | undefined {
  if (!hash.lastSeen) return undefined;
  return {
    agentId,
    taskId: hash.taskId,
    runId: hash.runId ? hash.runId : null,
    firstSeen: hash.firstSeen,
    lastSeen: hash.lastSeen,
    lastSeq: hash.lastSeq !== undefined ? Number(hash.lastSeq) : null,
  };
}

/** A member that no longer parses, or names another tenant, is not returned. */
function parseRecord(json: string, tenantId: string): HistoryRecord | undefined {
  try {
    const record = JSON.parse(json) as HistoryRecord;
    return record && typeof record === 'object' && record.tenantId === tenantId && typeof record.ts === 'string' ? record : undefined;
  } catch {
    return undefined;
  }
}
