/**
 * What the memory service remembers in process about each agent it has seen: the last position, anchor
 * progress (for the goal board), the current conclusion and references (for STATE), the reason of the
 * last failed attempt, the milestones already checkpointed, and a short operation log for context
 * assembly. It is a cache over what Redis holds, not the record: after a restart the checkpointed
 * milestones are re-read from the checkpoint stack, and the rest fills again from the next steps.
 * Bounded: the least recently seen agents are forgotten first.
 */
import type { Position } from '@wayfinder/contracts';
import type { AnchorProgress } from '@wayfinder/cognitive-map';
import type { AgentScope, OperationLogEntry } from '@wayfinder/memory';

export interface AgentTrail {
  runId: string | undefined;
  /** The last step applied in this run: redelivered steps at or below it change nothing. */
  lastSeq: number;
  position?: Position;
  anchors?: AnchorProgress;
  conclusion?: string;
  references: string[];
  lastFailure?: string;
  /** Milestones a checkpoint was pushed for (or found on the stack). */
  checkpointed: Set<string>;
  /** The STATE text last written, so an unchanged STATE costs no write. */
  lastStateText?: string;
  /** When this process last re-wrote the agent's entries to keep them from expiring (ms). */
  keptAliveAt?: number;
  /** Oldest first, at most MAX_LOG entries. */
  log: OperationLogEntry[];
}

export const MAX_LOG = 60;
export const MAX_REFERENCES = 8;
const DEFAULT_MAX_AGENTS = 50_000;

export function trailKey(scope: AgentScope): string {
  return JSON.stringify([scope.tenantId, scope.taskId, scope.agentId]);
}

export class AgentTrails {
  private readonly trails = new Map<string, AgentTrail>();

  constructor(private readonly maxAgents = DEFAULT_MAX_AGENTS) {}

  peek(scope: AgentScope): AgentTrail | undefined {
    return this.trails.get(trailKey(scope));
  }

  /** The trail of an agent, created with `seed` (what is already checkpointed) when first seen. */
  async get(scope: AgentScope, seed: () => Promise<Iterable<string>>): Promise<AgentTrail> {
    const key = trailKey(scope);
    let trail = this.trails.get(key);
    if (trail) {
      this.trails.delete(key); // re-inserted below: most recently seen last
    } else {
      trail = { runId: undefined, lastSeq: -1, references: [], checkpointed: new Set(await seed()), log: [] };
    }
    this.trails.set(key, trail);
    while (this.trails.size > this.maxAgents) this.trails.delete(this.trails.keys().next().value as string);
    return trail;
  }
}

export function appendLog(trail: AgentTrail, entry: OperationLogEntry): void {
  trail.log.push(entry);
  if (trail.log.length > MAX_LOG) trail.log.splice(0, trail.log.length - MAX_LOG);
}

export function addReference(trail: AgentTrail, reference: string): void {
  if (trail.references.includes(reference)) return;
  trail.references.push(reference);
  if (trail.references.length > MAX_REFERENCES) trail.references.shift();
}
