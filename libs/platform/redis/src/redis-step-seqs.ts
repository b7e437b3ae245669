/**
 * StepSeqs in Redis (distributed mode): per agent run a counter (`wf:{tenant}:step-seq:<ns>:<agent>:<run>`)
 * and the deliveries already numbered, a sorted set by seq (`…:step-seq-seen:…`, the most recent
 * `seenPerRun` kept). One Lua script checks the delivery, counts and records it: atomic, so two gateway
 * instances given the same hook twice number it once, and two steps of one run never share a seq. Both keys
 * expire `ttlMs` after the run's last step: a run idle that long starts again at 1.
 */
import type { Redis } from 'ioredis';
import type { StepRun, StepSeqs } from '@wayfinder/tenancy';
import { tenantKey } from './keys';

export interface RedisStepSeqsOptions {
  /** Separates deployments sharing one Redis (the topic prefix). */
  readonly namespace?: string;
  /** A run's counter expires this long after its last step (default 7 days). */
  readonly ttlMs?: number;
  /** Deliveries remembered per run against redelivery (default 256). */
  readonly seenPerRun?: number;
}

// KEYS[1] counter, KEYS[2] seen deliveries; ARGV[1] delivery ('' for none), ARGV[2] ttl ms, ARGV[3] seen kept
const NEXT = `
if ARGV[1] ~= '' and redis.call('ZSCORE', KEYS[2], ARGV[1]) then return false end
local seq = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if ARGV[1] ~= '' then
  redis.call('ZADD', KEYS[2], seq, ARGV[1])
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -tonumber(ARGV[3]) - 1)
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return seq
`;

export class RedisStepSeqs implements StepSeqs {
  private readonly namespace: string;
  private readonly ttlMs: number;
  private readonly seenPerRun: number;

  constructor(
    private readonly redis: Redis,
    options: RedisStepSeqsOptions = {},
  ) {
    this.namespace = options.namespace ?? '';
    this.ttlMs = options.ttlMs ?? 7 * 24 * 60 * 60 * 1000;
    this.seenPerRun = options.seenPerRun ?? 256;
  }

  async next(run: StepRun, delivery?: string): Promise<number | undefined> {
    const counter = tenantKey(run.tenantId, 'step-seq', this.namespace, run.agentId, run.runId);
    const seen = tenantKey(run.tenantId, 'step-seq-seen', this.namespace, run.agentId, run.runId);
    const seq = (await this.redis.eval(NEXT, 2, counter, seen, delivery ?? '', this.ttlMs, this.seenPerRun)) as number | null;
    return seq ?? undefined;
  }
}
