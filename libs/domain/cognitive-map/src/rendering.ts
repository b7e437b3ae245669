/**
 * Plain-text renderings placed in the agent's context (DESIGN §5.2, §5.5): the goal board (goal, anchors
 * with status such as "competitors 3/5", numbered constraints) and the STATE block (stage k/N, completed,
 * current conclusion, next concrete action, references to keep, last failure).
 */
import type { Anchor, CognitiveMap, Position } from '@wayfinder/contracts';
import { anchorStatus } from './anchor-progress';
import { topologicalOrder } from './map-validation';

const COMPARATOR_TEXT: Record<Anchor['comparator'], string> = { atLeast: 'at least', atMost: 'at most', exactly: 'exactly' };
const STATUS_MARK = { met: 'x', pending: ' ', exceeded: '!' } as const;

function oneLine(text: string, max = 280): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** "competitors 3/5": the anchor's unit, the count so far and the target. */
export function renderAnchor(anchor: Anchor, count: number): string {
  const status = anchorStatus(anchor, count);
  const hard = anchor.hard ? 'hard' : 'soft';
  return `[${STATUS_MARK[status]}] ${anchor.unit} ${count}/${anchor.target} (${COMPARATOR_TEXT[anchor.comparator]}, ${hard}${status === 'exceeded' ? ', EXCEEDED' : ''})`;
}

/** The goal board: what the agent must keep in view at every step. */
export function renderGoalBoard(map: CognitiveMap, counts: Readonly<Record<string, number>> = {}): string {
  const lines = [`GOAL: ${oneLine(map.goal)}`];
  if (map.anchors.length > 0) {
    lines.push('ANCHORS:');
    for (const a of map.anchors) {
      lines.push(`  ${renderAnchor(a, counts[a.id] ?? 0)}`);
      // A changed anchor says what it was and why, so the agent is not measured against the old one.
      const change = (map.anchorChanges ?? []).filter((c) => c.anchorId === a.id).at(-1);
      if (change) lines.push(`      changed from ${change.from.target} ${change.from.unit} (${change.acceptedBy === 'user' ? 'confirmed' : 'accepted by policy'}): ${oneLine(change.reason, 200)}`);
    }
  }
  if (map.constraints.length > 0) {
    lines.push('CONSTRAINTS:');
    for (const c of map.constraints) lines.push(`  ${c.id.toUpperCase()}. ${oneLine(c.text)}${c.hard ? '' : ' (soft)'}`);
  }
  return lines.join('\n');
}

export interface StateInput {
  map: CognitiveMap;
  position: Position;
  /** What the agent has concluded so far (a conclusion, not raw tool output). */
  conclusion?: string;
  /** The next concrete action; defaults to working on the current milestone. */
  nextAction?: string;
  /** References to keep across pruning: files, URLs, ids. */
  references?: readonly string[];
  /** Why the last attempt failed, when a correction follows one (DESIGN §5.4). */
  lastFailure?: string;
}

/** The STATE block: overwritten at each milestone, never appended. */
export function renderState(input: StateInput): string {
  const { map, position } = input;
  const order = topologicalOrder(map.milestones);
  const byId = new Map(map.milestones.map((m) => [m.id, m]));
  const n = order.length;
  const current = position.milestoneId ? byId.get(position.milestoneId) : undefined;
  const stage = current ? order.indexOf(current.id) + 1 : position.completed.length;
  const lines = ['STATE'];
  lines.push(current ? `stage: ${stage}/${n} — ${oneLine(current.description, 160)}` : `stage: ${n}/${n} — all milestones completed`);
  const done = order.filter((id) => position.completed.includes(id));
  lines.push(done.length > 0 ? 'completed:' : 'completed: none');
  for (const id of done) lines.push(`  - ${id}: ${oneLine(byId.get(id)?.description ?? id, 160)}`);
  lines.push(`current conclusion: ${input.conclusion ? oneLine(input.conclusion, 600) : 'none yet'}`);
  const next = input.nextAction ?? (current ? `work on ${current.id}: ${oneLine(current.description, 200)}` : `verify the result against the target: ${oneLine(map.targetState, 200)}`);
  lines.push(`next action: ${oneLine(next, 400)}`);
  if (input.references && input.references.length > 0) {
    lines.push('references to keep:');
    for (const r of input.references) lines.push(`  - ${oneLine(r, 300)}`);
  }
  if (input.lastFailure) lines.push(`last attempt failed: ${oneLine(input.lastFailure, 400)}`);
  return lines.join('\n');
}
