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
 * One script call per tenant of a batch does it all atomically, its records grouped by agent (see
 * APPEND_TENANT): a record costs its SET NX and one ZADD, the trims and the entry are paid once per agent.
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
import { encodeKeyPart, tenantKey } from './keys';

/**
 * The append of one tenant's records, grouped by agent, in one script call (EVALSHA: sent to the server
 * once). Per record: `SET NX` (idempotent by id) and the ZADD into its list; per agent, once: the trims of
 * its lists (retention, then bound) and the entry hash (read once, written once); per call, once: the
 * agents' scores in `agents` (one `ZADD GT`: only ever moved forward) and the trims of `agents` and `records`. Every key is
 * the tenant's (one Cluster slot) and passed in KEYS.
 * KEYS: agents, tenantRecords, then per agent: steps, records, entry, then its records' `rec:<id>` keys.
 * ARGV: cutoffMs, maxSteps, maxRecords, maxTenant, agentCount, nowMs, retentionMs, then per agent: agentId,
 * recordCount, then per record: json, scoreMs, seq ('' for a record that is not a step: steps always
 * have one). A record's TTL is its remaining retention (scoreMs + retentionMs - nowMs, at least 1 ms);
 * the entry's task, run and ts are read from the JSON of the two records that set them (cjson), so they
 * are not sent for every record (issue #17: every byte written to Redis costs CPU on both sides).
 * Answers how many records were new.
 */
const APPEND_TENANT = `
local cutoff = '(' .. ARGV[1]
local maxSteps, maxRecords, maxTenant = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local agentCount, now, retention = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local k, a = 3, 8
local added, tenantTtl, tenantRecordsTtl = 0, 0, 0
-- score, agentId of each agent written: its score in KEYS[1], one ZADD GT for all (≤ 256 agents a call).
local seen = {}
for _ = 1, agentCount do
  local agentId, n = ARGV[a], tonumber(ARGV[a + 1])
  a = a + 2
  local steps, records, entry = KEYS[k], KEYS[k + 1], KEYS[k + 2]
  k = k + 3
  local stepsTtl, recordsTtl, entryTtl = 0, 0, 0
  local lastMs, lastI, firstMs, firstI, maxSeq, maxSeqText = nil, nil, nil, nil, nil, nil
  for _ = 1, n do
    local score, seqText = tonumber(ARGV[a + 1]), ARGV[a + 2]
    local ttl = math.max(1, score + retention - now)
    if redis.call('SET', KEYS[k], ARGV[a], 'NX', 'PX', ttl) then
      added = added + 1
      if seqText ~= '' then
        redis.call('ZADD', steps, ARGV[a + 1], ARGV[a])
        if ttl > stepsTtl then stepsTtl = ttl end
      else
        redis.call('ZADD', records, ARGV[a + 1], ARGV[a])
        redis.call('ZADD', KEYS[2], ARGV[a + 1], ARGV[a])
        if ttl > recordsTtl then recordsTtl = ttl end
      end
      -- Like one record after the other: the newest (the later on a tie) names the task and run, the oldest (the earlier on a tie) is first seen.
      if (not lastMs) or score >= lastMs then lastMs, lastI = score, a end
      if (not firstMs) or score < firstMs then firstMs, firstI = score, a end
      if seqText ~= '' then
        local seq = tonumber(seqText)
        if (not maxSeq) or seq > maxSeq then maxSeq, maxSeqText = seq, seqText end
      end
      if ttl > entryTtl then entryTtl = ttl end
    end
    k = k + 1
    a = a + 3
  end
  if stepsTtl > 0 then
    redis.call('ZREMRANGEBYSCORE', steps, '-inf', cutoff)
    redis.call('ZREMRANGEBYRANK', steps, 0, -(maxSteps + 1))
    redis.call('PEXPIRE', steps, stepsTtl)
  end
  if recordsTtl > 0 then
    redis.call('ZREMRANGEBYSCORE', records, '-inf', cutoff)
    redis.call('ZREMRANGEBYRANK', records, 0, -(maxRecords + 1))
    redis.call('PEXPIRE', records, recordsTtl)
    if recordsTtl > tenantRecordsTtl then tenantRecordsTtl = recordsTtl end
  end
  if lastMs then
    local stored = redis.call('HMGET', entry, 'lastSeenMs', 'firstSeenMs', 'lastSeq')
    local fields = {}
    if (not stored[1]) or lastMs >= tonumber(stored[1]) then
      local last = cjson.decode(ARGV[lastI])
      local runId = last.runId
      if type(runId) ~= 'string' then runId = '' end
      fields = { 'taskId', last.taskId, 'runId', runId, 'lastSeen', last.ts, 'lastSeenMs', ARGV[lastI + 1] }
    end
    if (not stored[2]) or firstMs < tonumber(stored[2]) then
      fields[#fields + 1] = 'firstSeen'
      fields[#fields + 1] = cjson.decode(ARGV[firstI]).ts
      fields[#fields + 1] = 'firstSeenMs'
      fields[#fields + 1] = ARGV[firstI + 1]
    end
    if maxSeq and ((not stored[3]) or maxSeq > tonumber(stored[3])) then
      fields[#fields + 1] = 'lastSeq'
      fields[#fields + 1] = maxSeqText
    end
    if #fields > 0 then redis.call('HSET', entry, unpack(fields)) end
    redis.call('PEXPIRE', entry, entryTtl)
    seen[#seen + 1] = ARGV[lastI + 1]
    seen[#seen + 1] = agentId
    if entryTtl > tenantTtl then tenantTtl = entryTtl end
  end
end
if tenantTtl > 0 then
  redis.call('ZADD', KEYS[1], 'GT', unpack(seen))
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', cutoff)
  redis.call('PEXPIRE', KEYS[1], tenantTtl)
end
if tenantRecordsTtl > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', cutoff)
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(maxTenant + 1))
  redis.call('PEXPIRE', KEYS[2], tenantRecordsTtl)
end
return added
`;

/** Records per script call at most: one call holds Redis (single-threaded) for the whole of it. */
const MAX_RECORDS_PER_CALL = 256;
const MAX_CACHED_PREFIXES = 10_000;

export interface RedisHistoryStoreOptions extends Partial<HistoryLimits> {
  /** Separates deployments (and test runs) sharing one Redis. */
  namespace?: string;
  now?: () => number;
}

export class RedisHistoryStore implements HistoryStore {
  private readonly limits: HistoryLimits;
  private readonly namespace: string;
  private readonly now: () => number;
  private readonly prefixes = new Map<string, string>();

  constructor(
    private readonly redis: Redis,
    options: RedisHistoryStoreOptions = {},
  ) {
    this.limits = { ...DEFAULT_HISTORY_LIMITS, ...options };
    this.namespace = options.namespace ?? '';
    this.now = options.now ?? Date.now;
    // No fixed key count: the first argument of each call says how many keys follow.
    if (!('wfHistoryAppendTenant' in redis)) redis.defineCommand('wfHistoryAppendTenant', { lua: APPEND_TENANT });
  }

  private key(tenantId: string, ...parts: string[]): string {
    return tenantKey(tenantId, 'hist', this.namespace, ...parts);
  }

  /** `wf:{tenant}:hist:<ns>:`, built once per tenant (a few tenants; the cache is reset past a bound). */
  private prefixOf(tenantId: string): string {
    let prefix = this.prefixes.get(tenantId);
    if (prefix === undefined) {
      if (this.prefixes.size >= MAX_CACHED_PREFIXES) this.prefixes.clear();
      prefix = `${tenantKey(tenantId, 'hist', this.namespace)}:`;
      this.prefixes.set(tenantId, prefix);
    }
    return prefix;
  }

  private tenantsKey(): string {
    return `wf:hist:${this.namespace.replace(/[%:{}]/g, '_')}:tenants`;
  }

  async append(records: readonly HistoryRecord[]): Promise<number> {
    if (records.length === 0) return 0;
    const now = this.now();
    // Each tenant's retention, read once per append (its policy may set its own).
    const retentions = new Map<string, number>();
    const retentionOf = (tenantId: string): number => {
      let ms = retentions.get(tenantId);
      if (ms === undefined) retentions.set(tenantId, (ms = this.retentionOf(tenantId)));
      return ms;
    };
    // Live records by tenant, then by agent (first-seen order), each with its ts parsed once.
    const byTenant = new Map<string, Map<string, Array<{ record: HistoryRecord; ms: number }>>>();
    for (const record of records) {
      const ms = Date.parse(record.ts);
      if (!(ms >= now - retentionOf(record.tenantId))) continue;
      let agents = byTenant.get(record.tenantId);
      if (!agents) byTenant.set(record.tenantId, (agents = new Map()));
      let list = agents.get(record.agentId);
      if (!list) agents.set(record.agentId, (list = []));
      list.push({ record, ms });
    }
    if (byTenant.size === 0) return 0;
    const pipeline = this.redis.pipeline() as ChainableCommander & { wfHistoryAppendTenant(...args: Array<string | number | Buffer>): unknown };
    let calls = 0;
    for (const [tenantId, agents] of byTenant) {
      const prefix = this.prefixOf(tenantId);
      const retention = retentionOf(tenantId);
      const cutoff = now - retention;
      let keys: string[] = [];
      let argv: Array<string | number | Buffer> = [];
      let agentCount = 0;
      let recordCount = 0;
      const send = () => {
        if (agentCount === 0) return;
        // EVALSHA of the script loaded once (ioredis loads it when the server does not know it).
        pipeline.wfHistoryAppendTenant(keys.length + 2, `${prefix}agents`, `${prefix}records`, ...keys, cutoff, this.limits.maxStepsPerAgent, this.limits.maxRecordsPerAgent, this.limits.maxRecordsPerTenant, agentCount, now, retention, ...argv);
        calls++;
        keys = [];
        argv = [];
        agentCount = 0;
        recordCount = 0;
      };
      for (const [agentId, list] of agents) {
        const agentPrefix = `${prefix}agent:${encodeKeyPart(agentId)}`;
        for (let from = 0; from < list.length; from += MAX_RECORDS_PER_CALL) {
          const part = list.slice(from, from + MAX_RECORDS_PER_CALL);
          if (recordCount + part.length > MAX_RECORDS_PER_CALL) send();
          keys.push(`${agentPrefix}:steps`, `${agentPrefix}:records`, agentPrefix);
          argv.push(agentId, part.length);
          for (const { record: r, ms } of part) {
            keys.push(`${prefix}rec:${encodeKeyPart(r.id)}`);
            // The script gives it its remaining retention: it expires when it would drop out of reads.
            // As bytes: a command with a Buffer is written as one Buffer, which costs less system time than the
            // same bytes as one long string (issue #17; libs/platform/redis/bench/history-append.bench.ts).
            argv.push(Buffer.from(recordJson(r)), ms, r.kind === 'step' ? r.seq : '');
          }
          agentCount++;
          recordCount += part.length;
        }
      }
      send();
    }
    // The tenant list once per tenant of the batch, after the scripts.
    pipeline.sadd(this.tenantsKey(), ...byTenant.keys());
    const results = (await pipeline.exec()) ?? [];
    let added = 0;
    results.forEach(([error, value], i) => {
      if (error) throw error;
      // The scripts' answers come first (the tenant list's SADD last).
      if (i < calls) added += Number(value);
    });
    return added;
  }

  async agents(tenantId: string, query: { taskId?: string; since?: number } = {}): Promise<AgentEntry[]> {
    const min = Math.max(this.cutoff(tenantId), query.since ?? -Infinity);
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
    return entry && Date.parse(entry.lastSeen) >= this.cutoff(tenantId) ? entry : undefined;
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
    return record && Date.parse(record.ts) >= this.cutoff(tenantId) ? record : undefined;
  }

  async tenants(): Promise<string[]> {
    const ids = await this.redis.smembers(this.tenantsKey());
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.zcount(this.key(id, 'agents'), this.cutoff(id), '+inf');
    const counts = (await pipeline.exec()) ?? [];
    return ids.filter((_, i) => Number(counts[i][1]) > 0).sort();
  }

  private async read(tenantId: string, lists: string[], query: HistoryQuery): Promise<HistoryRecord[]> {
    const min = Math.max(this.cutoff(tenantId), query.since ?? -Infinity);
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

  /** The tenant's retention (HistoryLimits.retentionOf) or the store's. */
  private retentionOf(tenantId: string): number {
    return this.limits.retentionOf?.(tenantId) ?? this.limits.retentionMs;
  }

  /** The oldest ts the tenant keeps. A record stored under a longer retention keeps its TTL but is no longer read. */
  private cutoff(tenantId: string): number {
    return this.now() - this.retentionOf(tenantId);
  }
}

/**
 * The script reads a record's task, run and ts with cjson, which refuses the escape of a lone surrogate
 * (`\ud800`, which JSON.stringify writes for one): such a record is stored with U+FFFD in its place. A
 * lone surrogate is not text (it comes only from a malformed payload), and the rest of the record is kept.
 */
const SURROGATE_ESCAPE = /\\ud[89a-f]/i;

function recordJson(record: HistoryRecord): string {
  const json = JSON.stringify(record);
  // includes() first: a plain substring search, cheaper than the regex on every record.
  if (!json.includes('\\u') || !SURROGATE_ESCAPE.test(json)) return json;
  return JSON.stringify(record, (_key, value: unknown) => (typeof value === 'string' ? (value as string & { toWellFormed(): string }).toWellFormed() : value));
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
