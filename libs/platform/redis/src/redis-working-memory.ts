/**
 * WorkingMemory on Redis (DESIGN §5.5): per tenant/task the charter (a JSON string), per tenant/task/agent
 * the STATE snapshot (a hash, overwritten only by a snapshot at least as new, checked in a script so two
 * writers cannot move it backwards) and the checkpoint stack (a list, newest at the right). Every key is
 * built by `tenantKey`, so the tenant comes first and no id of one tenant can name another tenant's key.
 * Each entry expires `ttlMs` after its last write (PEXPIRE in the same script or SET PX); reads never
 * extend it.
 */
import type { Redis } from 'ioredis';
import { assertScope, type AgentScope, type Charter, type Checkpoint, type StateSnapshot, type TaskScope, type WorkingMemory } from '@wayfinder/memory';
import { tenantKey } from './keys';

export interface RedisWorkingMemoryOptions {
  /** Entries expire this long after their last write (default 24 h). */
  ttlMs?: number;
  /** Second segment of every key (default `wm`); tests use a unique one per run. */
  namespace?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

// Returns 1 when stored, 0 when the stored snapshot is newer (the late one is ignored).
const PUT_STATE_IF_NEWER = `
local current = redis.call('HGET', KEYS[1], 'seq')
if current and tonumber(current) > tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'seq', ARGV[1], 'text', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

// A redelivered push of the checkpoint already on top only refreshes the stack's TTL.
const PUSH_CHECKPOINT = `
local top = redis.call('LINDEX', KEYS[1], -1)
if not top or cjson.decode(top).id ~= ARGV[1] then redis.call('RPUSH', KEYS[1], ARGV[2]) end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

// Popping refreshes the TTL of what stays, like any other write of the stack.
const POP_CHECKPOINT = `
local top = redis.call('RPOP', KEYS[1])
if top and redis.call('EXISTS', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return top
`;

// Compare-and-set of the charter: stores ARGV[2] only if the stored value is still ARGV[1] ('' = absent).
const CHARTER_CAS = `
local current = redis.call('GET', KEYS[1])
if (current or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`;

// Pops down to the checkpoint with id ARGV[1] in one step; returns it (nil when not on the stack).
const ROLLBACK_TO = `
local items = redis.call('LRANGE', KEYS[1], 0, -1)
for i = #items, 1, -1 do
  if cjson.decode(items[i]).id == ARGV[1] then
    redis.call('LTRIM', KEYS[1], 0, i - 1)
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return items[i]
  end
end
return false
`;

/** Attempts of a charter update that keeps losing to other writers before it gives up (with an error). */
const MAX_CHARTER_ATTEMPTS = 16;

export class RedisWorkingMemory implements WorkingMemory {
  private readonly ttlMs: number;
  private readonly namespace: string;

  constructor(
    private readonly redis: Redis,
    options: RedisWorkingMemoryOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DAY_MS;
    this.namespace = options.namespace ?? 'wm';
    if (!Number.isInteger(this.ttlMs) || this.ttlMs <= 0) throw new Error('RedisWorkingMemory: ttlMs must be a positive integer');
  }

  async getCharter(scope: TaskScope): Promise<Charter | undefined> {
    assertScope(scope, false);
    const json = await this.redis.get(this.charterKey(scope));
    return json ? (JSON.parse(json) as Charter) : undefined;
  }

  async setCharter(scope: TaskScope, charter: Charter): Promise<void> {
    assertScope(scope, false);
    await this.redis.set(this.charterKey(scope), JSON.stringify(charter), 'PX', this.ttlMs);
  }

  async updateCharter(scope: TaskScope, update: (current: Charter | undefined) => Charter | undefined): Promise<Charter | undefined> {
    assertScope(scope, false);
    const key = this.charterKey(scope);
    for (let attempt = 0; attempt < MAX_CHARTER_ATTEMPTS; attempt++) {
      const json = await this.redis.get(key);
      const current = json ? (JSON.parse(json) as Charter) : undefined;
      const next = update(current);
      if (next === undefined) return current;
      if ((await this.redis.eval(CHARTER_CAS, 1, key, json ?? '', JSON.stringify(next), this.ttlMs)) === 1) return next;
    }
    throw new Error(`working memory: the charter of ${scope.tenantId}/${scope.taskId} kept changing under ${MAX_CHARTER_ATTEMPTS} attempts to update it`);
  }

  async rollbackTo(scope: AgentScope, checkpointId: string): Promise<Checkpoint | undefined> {
    assertScope(scope, true);
    const json = (await this.redis.eval(ROLLBACK_TO, 1, this.agentKey(scope, 'checkpoints'), checkpointId, this.ttlMs)) as string | null;
    return json ? (JSON.parse(json) as Checkpoint) : undefined;
  }

  async getState(scope: AgentScope): Promise<StateSnapshot | undefined> {
    assertScope(scope, true);
    const [seq, text] = await this.redis.hmget(this.agentKey(scope, 'state'), 'seq', 'text');
    if (seq === null || text === null) return undefined;
    return { seq: Number(seq), text };
  }

  async putState(scope: AgentScope, snapshot: StateSnapshot): Promise<boolean> {
    assertScope(scope, true);
    if (!Number.isFinite(snapshot.seq)) throw new Error('working memory: STATE seq must be a number');
    const stored = await this.redis.eval(PUT_STATE_IF_NEWER, 1, this.agentKey(scope, 'state'), snapshot.seq, snapshot.text, this.ttlMs);
    return stored === 1;
  }

  async pushCheckpoint(scope: AgentScope, checkpoint: Checkpoint): Promise<void> {
    assertScope(scope, true);
    await this.redis.eval(PUSH_CHECKPOINT, 1, this.agentKey(scope, 'checkpoints'), checkpoint.id, JSON.stringify(checkpoint), this.ttlMs);
  }

  async popCheckpoint(scope: AgentScope): Promise<Checkpoint | undefined> {
    assertScope(scope, true);
    const json = (await this.redis.eval(POP_CHECKPOINT, 1, this.agentKey(scope, 'checkpoints'), this.ttlMs)) as string | null;
    return json ? (JSON.parse(json) as Checkpoint) : undefined;
  }

  async listCheckpoints(scope: AgentScope): Promise<Checkpoint[]> {
    assertScope(scope, true);
    const items = await this.redis.lrange(this.agentKey(scope, 'checkpoints'), 0, -1);
    return items.map((json) => JSON.parse(json) as Checkpoint);
  }

  private charterKey(scope: TaskScope): string {
    return tenantKey(scope.tenantId, this.namespace, 'charter', scope.taskId);
  }

  private agentKey(scope: AgentScope, what: 'state' | 'checkpoints'): string {
    return tenantKey(scope.tenantId, this.namespace, what, scope.taskId, scope.agentId);
  }
}
