/**
 * The WorkingMemory port (DESIGN §5.5): per task and agent, the charter, the latest STATE snapshot and the
 * checkpoint stack. Redis in production (libs/platform), `InMemoryWorkingMemory` embedded; both pass
 * `workingMemoryContract` from `@wayfinder/memory/testing`.
 *
 * Semantics every adapter keeps:
 * - Every key is namespaced by tenant: no scope of one tenant can read, overwrite or pop another's keys.
 *   A scope with an empty tenantId is rejected.
 * - TTL: each entry (charter, STATE, checkpoint stack) expires `ttlMs` after its last WRITE; reads do not
 *   extend it. The checkpoint stack expires as a whole (a push refreshes it).
 * - STATE is overwritten, never appended; a snapshot with a lower `seq` than the stored one is ignored
 *   (redelivered or reordered events must not move STATE backwards).
 * - Checkpoints are pushed at each verified milestone; pushing the id already on top is a no-op
 *   (at-least-once delivery); a rollback pops down to the checkpoint it names.
 */
import type { Charter } from './charter';

export interface TaskScope {
  tenantId: string;
  taskId: string;
}

export interface AgentScope extends TaskScope {
  agentId: string;
}

export interface StateSnapshot {
  /** The step the snapshot reflects. */
  seq: number;
  /** The rendered STATE block. */
  text: string;
}

export interface Checkpoint {
  id: string;
  milestoneId: string;
  /** The last verified step: a rollback discards what came after it. */
  seq: number;
  /** The STATE at the checkpoint, restored by a rollback. */
  state?: string;
}

export interface WorkingMemory {
  getCharter(scope: TaskScope): Promise<Charter | undefined>;
  setCharter(scope: TaskScope, charter: Charter): Promise<void>;
  getState(scope: AgentScope): Promise<StateSnapshot | undefined>;
  /** Overwrites STATE; returns false when the snapshot is older than the stored one (and ignores it). */
  putState(scope: AgentScope, snapshot: StateSnapshot): Promise<boolean>;
  pushCheckpoint(scope: AgentScope, checkpoint: Checkpoint): Promise<void>;
  /** Removes and returns the top checkpoint. */
  popCheckpoint(scope: AgentScope): Promise<Checkpoint | undefined>;
  /** Oldest first; the last element is the top of the stack. */
  listCheckpoints(scope: AgentScope): Promise<Checkpoint[]>;
  /**
   * Read-modify-write of the charter, atomic (issue 14: never get-then-set): `update` gets the stored
   * charter and returns the next one, or undefined to leave it; it may run more than once when another
   * writer got in between. Resolves to the charter stored afterwards.
   */
  updateCharter(scope: TaskScope, update: (current: Charter | undefined) => Charter | undefined): Promise<Charter | undefined>;
  /**
   * Pops down to the named checkpoint in one atomic step, leaving it on top (the rollback of DESIGN §5.4).
   * Returns it, or undefined (and pops nothing) when it is not on the stack.
   */
  rollbackTo(scope: AgentScope, checkpointId: string): Promise<Checkpoint | undefined>;
}

/** Rejects scopes that could escape tenant isolation (an empty tenant would be a shared namespace). */
export function assertScope(scope: Partial<AgentScope>, needsAgent: boolean): void {
  if (typeof scope.tenantId !== 'string' || scope.tenantId.length === 0) throw new Error('working memory: tenantId is required');
  if (typeof scope.taskId !== 'string' || scope.taskId.length === 0) throw new Error('working memory: taskId is required');
  if (needsAgent && (typeof scope.agentId !== 'string' || scope.agentId.length === 0)) {
    throw new Error('working memory: agentId is required');
  }
}

/**
 * Pops down to the named checkpoint, leaving it on top (the rollback of DESIGN §5.4). Returns it, or
 * undefined (and pops nothing) when it is not on the stack.
 */
export async function rollbackTo(memory: WorkingMemory, scope: AgentScope, checkpointId: string): Promise<Checkpoint | undefined> {
  return memory.rollbackTo(scope, checkpointId);
}
