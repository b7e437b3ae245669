/**
 * The replan builder: a new path from where the agent is to the target, never from the start. Completed
 * milestones are kept; the remaining ones are listed in dependency order, the current milestone first.
 */
import type { CognitiveMap, Milestone } from '@wayfinder/contracts';

export interface ReplanInput {
  map?: CognitiveMap;
  /** The milestone the agent is on (null when it could not be localized). */
  currentMilestoneId: string | null;
  completed: readonly string[];
  /** Why the previous attempt failed; carried into the next STATE block. */
  failureReason: string;
}

export interface ReplanBody {
  fromMilestoneId: string | null;
  remaining: string[];
  reason: string;
}

/** Milestones in a dependency-respecting order, ties kept in map order (deterministic). */
export function topologicalOrder(milestones: readonly Milestone[]): Milestone[] {
  const byId = new Map(milestones.map((m) => [m.id, m]));
  const placed = new Set<string>();
  const order: Milestone[] = [];
  // ≤7 milestones per map: the quadratic scan is clearer than a queue and just as fast here.
  while (order.length < milestones.length) {
    const next = milestones.find(
      (m) => !placed.has(m.id) && m.dependsOn.every((d) => placed.has(d) || !byId.has(d)),
    );
    // A cycle is rejected by the map parser; if one slipped through, keep the rest in map order.
    const pick = next ?? milestones.find((m) => !placed.has(m.id));
    if (!pick) break;
    placed.add(pick.id);
    order.push(pick);
  }
  return order;
}

export function buildReplan(input: ReplanInput): ReplanBody {
  const done = new Set(input.completed);
  const ordered = input.map ? topologicalOrder(input.map.milestones) : [];
  const open = ordered.filter((m) => !done.has(m.id)).map((m) => m.id);
  const current = input.currentMilestoneId;
  const remaining = current !== null && open.includes(current) ? [current, ...open.filter((id) => id !== current)] : open;
  const fromMilestoneId = current !== null && !done.has(current) ? current : (remaining[0] ?? current);
  const next = remaining.length > 0 ? `Remaining path: ${remaining.join(' → ')}.` : 'No milestone is left open.';
  const target = input.map?.targetState ? ` Target: ${input.map.targetState}` : '';
  const reason = truncate(`Replan from ${fromMilestoneId ?? 'the current position'}: ${input.failureReason} ${next}${target}`, 4096);
  return { fromMilestoneId, remaining, reason };
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
