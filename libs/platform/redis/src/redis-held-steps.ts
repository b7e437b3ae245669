/**
 * Steps waiting for their task's map, in Redis (DESIGN §3, §7): one list per (tenant, task), in arrival
 * order, bounded, plus one index of held tasks by the time their first step was held (for the timeout
 * sweep). Holding, taking and the sweep are Lua scripts: atomic, so a step is taken by one instance once,
 * even when every instance sees the map.
 */
import type { Redis } from 'ioredis';
import type { StepEvent } from '@wayfinder/contracts';
import { tenantKey } from './keys';

export interface RedisHeldStepsOptions {
  /** Separates deployments sharing one Redis (the topic prefix). */
  readonly namespace?: string;
  /** At most this many steps held per task; the oldest are handed back beyond it (default 4096). */
  readonly maxPerTask?: number;
  /** A held task's list expires after this long untouched (default 1 day). */
  readonly ttlMs?: number;
}

// KEYS[1] list, KEYS[2] index; ARGV[1] now, ARGV[2] max, ARGV[3] ttl, ARGV[4..] steps
const HOLD = `
for i = 4, #ARGV do redis.call('RPUSH', KEYS[1], ARGV[i]) end
redis.call('ZADD', KEYS[2], 'NX', ARGV[1], KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
local over = redis.call('LLEN', KEYS[1]) - tonumber(ARGV[2])
if over > 0 then
  local out = redis.call('LRANGE', KEYS[1], 0, over - 1)
  redis.call('LTRIM', KEYS[1], over, -1)
  return out
end
return {}
`;

// KEYS[1] list, KEYS[2] index
const TAKE = `
local out = redis.call('LRANGE', KEYS[1], 0, -1)
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], KEYS[1])
return out
`;

// KEYS[1] index; ARGV[1] cutoff, ARGV[2] max tasks
const TAKE_EXPIRED = `
local lists = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, list in ipairs(lists) do
  local steps = redis.call('LRANGE', list, 0, -1)
  for _, s in ipairs(steps) do out[#out + 1] = s end
  redis.call('DEL', list)
  redis.call('ZREM', KEYS[1], list)
end
return out
`;

export class RedisHeldSteps {
  private readonly namespace: string;
  private readonly maxPerTask: number;
  private readonly ttlMs: number;

  constructor(
    private readonly redis: Redis,
    options: RedisHeldStepsOptions = {},
  ) {
    this.namespace = options.namespace ?? '';
    this.maxPerTask = options.maxPerTask ?? 4096;
    this.ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  }

  async hold(steps: readonly StepEvent[], nowMs: number): Promise<StepEvent[]> {
    if (steps.length === 0) return [];
    const byList = new Map<string, string[]>();
    for (const step of steps) {
      const key = this.listKey(step.tenantId, step.taskId);
      const list = byList.get(key);
      if (list) list.push(JSON.stringify(step));
      else byList.set(key, [JSON.stringify(step)]);
    }
    const pipeline = this.redis.pipeline();
    for (const [key, values] of byList) pipeline.eval(HOLD, 2, key, this.indexKey(), nowMs, this.maxPerTask, this.ttlMs, ...values);
    return parseSteps(await pipeline.exec());
  }

  async take(tenantId: string, taskId: string): Promise<StepEvent[]> {
    const out = (await this.redis.eval(TAKE, 2, this.listKey(tenantId, taskId), this.indexKey())) as string[];
    return out.map((s) => JSON.parse(s) as StepEvent);
  }

  async takeExpired(heldBeforeMs: number): Promise<StepEvent[]> {
    const out = (await this.redis.eval(TAKE_EXPIRED, 1, this.indexKey(), heldBeforeMs, 1_000)) as string[];
    return out.map((s) => JSON.parse(s) as StepEvent);
  }

  async putBack(steps: readonly StepEvent[], nowMs: number): Promise<void> {
    await this.hold(steps, nowMs);
  }

  private listKey(tenantId: string, taskId: string): string {
    return tenantKey(tenantId, 'held', this.namespace, taskId);
  }

  /** Not under a tenant: the sweep looks across tenants. The members are the tenants' list keys. */
  private indexKey(): string {
    return `wf:held-index:${encodeURIComponent(this.namespace)}`;
  }
}

function parseSteps(results: Array<[Error | null, unknown]> | null): StepEvent[] {
  const out: StepEvent[] = [];
  for (const [error, value] of results ?? []) {
    if (error) throw error;
    for (const s of value as string[]) out.push(JSON.parse(s) as StepEvent);
  }
  return out;
}
