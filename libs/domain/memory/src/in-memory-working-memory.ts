/** WorkingMemory in process memory: the embedded default and the reference for the Redis adapter. */
import { systemClock } from '@wayfinder/clock';
import { compositeKey } from '@wayfinder/contracts';
import type { Charter } from './charter';
import { assertScope, type AgentScope, type Checkpoint, type StateSnapshot, type TaskScope, type WorkingMemory } from './working-memory.port';

export interface InMemoryWorkingMemoryOptions {
  /** Entries expire this long after their last write (default 24 h). */
  ttlMs?: number;
  now?: () => number;
}

interface Entry<T> {
  value: T;
  expiresAt: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function taskKey(scope: TaskScope): string {
  return compositeKey(scope.tenantId, scope.taskId);
}

function agentKey(scope: AgentScope): string {
  return compositeKey(scope.tenantId, scope.taskId, scope.agentId);
}

export class InMemoryWorkingMemory implements WorkingMemory {
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly charters = new Map<string, Entry<Charter>>();
  private readonly states = new Map<string, Entry<StateSnapshot>>();
  private readonly stacks = new Map<string, Entry<Checkpoint[]>>();

  constructor(options: InMemoryWorkingMemoryOptions = {}) {
    this.ttlMs = options.ttlMs ?? DAY_MS;
    this.now = options.now ?? systemClock.now;
  }

  async getCharter(scope: TaskScope): Promise<Charter | undefined> {
    assertScope(scope, false);
    return clone(this.live(this.charters, taskKey(scope)));
  }

  async setCharter(scope: TaskScope, charter: Charter): Promise<void> {
    assertScope(scope, false);
    this.charters.set(taskKey(scope), this.entry(clone(charter)));
  }

  async updateCharter(scope: TaskScope, update: (current: Charter | undefined) => Charter | undefined): Promise<Charter | undefined> {
    assertScope(scope, false);
    // No await between the read and the write: atomic in one process.
    const current = clone(this.live(this.charters, taskKey(scope)));
    const next = update(current);
    if (next === undefined) return current;
    this.charters.set(taskKey(scope), this.entry(clone(next)));
    return clone(next);
  }

  async rollbackTo(scope: AgentScope, checkpointId: string): Promise<Checkpoint | undefined> {
    assertScope(scope, true);
    const key = agentKey(scope);
    const stack = this.live(this.stacks, key);
    const index = stack?.findIndex((c) => c.id === checkpointId) ?? -1;
    if (!stack || index < 0) return undefined;
    this.stacks.set(key, this.entry(stack.slice(0, index + 1)));
    return { ...stack[index] };
  }

  async getState(scope: AgentScope): Promise<StateSnapshot | undefined> {
    assertScope(scope, true);
    return clone(this.live(this.states, agentKey(scope)));
  }

  async putState(scope: AgentScope, snapshot: StateSnapshot): Promise<boolean> {
    assertScope(scope, true);
    const key = agentKey(scope);
    const current = this.live(this.states, key);
    if (current && snapshot.seq < current.seq) return false;
    this.states.set(key, this.entry({ ...snapshot }));
    return true;
  }

  async pushCheckpoint(scope: AgentScope, checkpoint: Checkpoint): Promise<void> {
    assertScope(scope, true);
    const key = agentKey(scope);
    const stack = this.live(this.stacks, key) ?? [];
    const top = stack.at(-1);
    const next = top?.id === checkpoint.id ? stack : [...stack, { ...checkpoint }];
    this.stacks.set(key, this.entry(next));
  }

  async popCheckpoint(scope: AgentScope): Promise<Checkpoint | undefined> {
    assertScope(scope, true);
    const key = agentKey(scope);
    const stack = this.live(this.stacks, key);
    if (!stack || stack.length === 0) return undefined;
    const rest = stack.slice(0, -1);
    this.stacks.set(key, this.entry(rest));
    return { ...stack[stack.length - 1] };
  }

  async listCheckpoints(scope: AgentScope): Promise<Checkpoint[]> {
    assertScope(scope, true);
    return (this.live(this.stacks, agentKey(scope)) ?? []).map((c) => ({ ...c }));
  }

  private entry<T>(value: T): Entry<T> {
    return { value, expiresAt: this.now() + this.ttlMs };
  }

  /** The value if present and not expired; expired entries are dropped on the way. */
  private live<T>(map: Map<string, Entry<T>>, key: string): T | undefined {
    const entry = map.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      map.delete(key);
      return undefined;
    }
    return entry.value;
  }
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
