/**
 * What the memory service remembers about each agent, and the decisions it takes from it (DESIGN §5.5),
 * pure: the service (libs/services/memory, MemoryRecorder) reads and writes the stores and calls these.
 * - a cognitive map becomes the task charter; a newer map keeps the numbers already given and the
 *   constraints users added; user feedback becomes the next numbered constraint;
 * - a step at or below the last one applied in its run is a redelivery and changes nothing;
 * - when a milestone becomes completed a checkpoint is taken (with the id the correction engine names);
 * - STATE is rendered from the trail; after a rollback or replan it carries the failure reason, at least
 *   as new as the stored snapshot, until the agent completes a milestone;
 * - an active agent's entries are re-written every quarter of their TTL.
 */
import { checkpointId, type CognitiveMap, type Position, type StepEvent } from '@wayfinder/contracts';
import { emptyProgress, renderState, stepText, updateAnchorProgress, type AnchorProgress } from '@wayfinder/cognitive-map';
import { appendConstraint, appendFeedback, charterFromMap, createCharter, type Charter } from './charter';
import type { OperationLogEntry } from './context-assembly';
import type { Checkpoint } from './working-memory.port';

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
  /**
   * Oldest first, at most MAX_LOG entries (appendLog). An entry is never changed once appended: its
   * encoding is kept and re-used by every later write-back (agent-trail-codec's TrailLogBytes).
   */
  log: OperationLogEntry[];
  /** The last STATE rendered and what it was rendered from (in memory only: see `trailState`). */
  rendered?: RenderedState;
}

/** The inputs of renderState a trail passes, and the text they gave. */
interface RenderedState {
  readonly map: CognitiveMap;
  readonly milestoneId: string | null;
  readonly completed: readonly string[];
  readonly conclusion: string | undefined;
  readonly references: readonly string[];
  readonly lastFailure: string | undefined;
  readonly text: string;
}

export const MAX_LOG = 60;
export const MAX_REFERENCES = 8;
const FAILURE_PREFIX = 'last attempt failed:';
const MAX_CONCLUSION_CHARS = 600;
const MAX_REFERENCE_CHARS = 300;

/** A trail for an agent first seen, with the milestones already on its checkpoint stack. */
export function newTrail(checkpointed: Iterable<string>): AgentTrail {
  return { runId: undefined, lastSeq: -1, references: [], checkpointed: new Set(checkpointed), log: [] };
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

/**
 * Whether a step is new to the trail: a step of another run starts the sequence over; a step at or below
 * the last one applied in its run is a redelivery (everything below was already applied).
 */
export function admitStep(trail: AgentTrail, step: Pick<StepEvent, 'seq' | 'runId'>): boolean {
  const runId = step.runId ?? undefined;
  if (trail.runId !== runId) {
    trail.runId = runId;
    trail.lastSeq = -1;
  }
  return step.seq > trail.lastSeq;
}

/** An assistant output that was remembered becomes the trail's conclusion (and a reference when it is one). */
export function concludeWith(trail: AgentTrail, output: string, asReference: boolean): string {
  const conclusion = output.replace(/\s+/g, ' ').trim().slice(0, MAX_CONCLUSION_CHARS);
  trail.conclusion = conclusion;
  if (asReference) addReference(trail, conclusion.slice(0, MAX_REFERENCE_CHARS));
  return conclusion;
}

/** What a localized step on a mapped task changes: position, anchors, STATE and a checkpoint to push. */
export interface TrailAdvance {
  /** The STATE rendered after the step ('' before the agent has a position). */
  state: string;
  /** The checkpoint to push when the step completed milestones not yet checkpointed. */
  checkpoint?: Checkpoint;
  /** The milestones that checkpoint covers (mark them with `markCheckpointed` once it is pushed). */
  newlyCompleted: string[];
}

/** Moves the trail to the step's position (an unknown position keeps the last known one). */
export function moveTo(trail: AgentTrail, position: Position): void {
  if (position.method !== 'unknown') trail.position = position;
}

/**
 * Anchor progress, the failure line (progress after a correction makes the failure it answered history)
 * and the checkpoint of the newest completed milestone, for a step of a task whose map is known.
 */
export function advanceOnMap(trail: AgentTrail, map: CognitiveMap, step: StepEvent, position: Position): TrailAdvance {
  trail.anchors = updateAnchorProgress(map.anchors, trail.anchors ?? emptyProgress(map.anchors), step);
  const newlyCompleted = position.completed.filter((id) => !trail.checkpointed.has(id));
  if (newlyCompleted.length > 0) trail.lastFailure = undefined;
  const state = trailState(trail, map);
  if (newlyCompleted.length === 0) return { state, newlyCompleted };
  const milestoneId = position.completed[position.completed.length - 1];
  return { state, newlyCompleted, checkpoint: { id: checkpointId(step.taskId, milestoneId, step.seq), milestoneId, seq: step.seq, state } };
}

export function markCheckpointed(trail: AgentTrail, milestoneIds: readonly string[]): void {
  for (const id of milestoneIds) trail.checkpointed.add(id);
}

/**
 * The agent's STATE block from its trail, '' before it has a position. Most steps change none of what
 * STATE shows (the map, the current and completed milestones, the conclusion, references and failure), so
 * the last rendering is kept on the trail with its inputs and returned while they are the same.
 */
export function trailState(trail: AgentTrail, map: CognitiveMap): string {
  const position = trail.position;
  if (!position) return '';
  const last = trail.rendered;
  if (
    last &&
    last.map === map &&
    last.milestoneId === position.milestoneId &&
    last.conclusion === trail.conclusion &&
    last.lastFailure === trail.lastFailure &&
    sameStrings(last.completed, position.completed) &&
    sameStrings(last.references, trail.references)
  ) {
    return last.text;
  }
  const text = renderState({
    map,
    position,
    ...(trail.conclusion !== undefined && { conclusion: trail.conclusion }),
    ...(trail.references.length > 0 && { references: trail.references }),
    ...(trail.lastFailure !== undefined && { lastFailure: trail.lastFailure }),
  });
  trail.rendered = {
    map,
    milestoneId: position.milestoneId,
    completed: [...position.completed],
    conclusion: trail.conclusion,
    references: [...trail.references],
    lastFailure: trail.lastFailure,
    text,
  };
  return text;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether the STATE text differs from the one last written (an unchanged STATE costs no write). */
export function stateChanged(trail: AgentTrail, state: string): boolean {
  return state !== trail.lastStateText;
}

/**
 * Whether it is time to re-write the agent's entries (every `everyMs`, a quarter of their TTL): the first
 * step seen only starts the clock. Records the time when it answers yes.
 */
export function keepAliveDue(trail: AgentTrail, nowMs: number, everyMs: number): boolean {
  if (trail.keptAliveAt === undefined) {
    trail.keptAliveAt = nowMs;
    return false;
  }
  if (nowMs - trail.keptAliveAt < everyMs) return false;
  trail.keptAliveAt = nowMs;
  return true;
}

/** The operation-log entry of a step (for context assembly). */
export function logEntry(step: StepEvent, milestoneId: string | null, conclusion: string | undefined): OperationLogEntry {
  const text = step.kind === 'milestone' ? `${step.milestone.id} ${step.milestone.status}` : (stepText(step)?.text ?? step.kind);
  return { seq: step.seq, milestoneId, kind: step.kind, text, ...(conclusion !== undefined && { conclusion }) };
}

/** The map's charter, keeping the numbers (and user constraints) of the charter already stored. */
export function mergeCharter(current: Charter | undefined, map: Pick<CognitiveMap, 'goal' | 'constraints'>): Charter {
  const fromMap = charterFromMap(map);
  if (!current) return fromMap;
  let next: Charter = { ...current, goal: fromMap.goal };
  for (const c of fromMap.constraints) next = appendConstraint(next, c.text, c.source);
  return next;
}

/** The charter to store when a map arrives, or undefined when the stored one already says the same. */
export function charterOnMap(current: Charter | undefined, map: Pick<CognitiveMap, 'goal' | 'constraints'>): Charter | undefined {
  const next = mergeCharter(current, map);
  return !current || JSON.stringify(current) !== JSON.stringify(next) ? next : undefined;
}

/**
 * The charter to store when user feedback arrives (the map's charter, or an empty one, when none is
 * stored yet), or undefined when the feedback is already one of its constraints.
 */
export function charterOnFeedback(stored: Charter | undefined, feedback: string, map: CognitiveMap | undefined): Charter | undefined {
  const current = stored ?? (map ? charterFromMap(map) : createCharter(''));
  const next = appendFeedback(current, feedback);
  return next !== current ? next : undefined;
}

/** A STATE text with the failure line replaced (renderState puts it last, so this equals a re-render). */
export function withFailure(state: string, reason: string): string {
  const kept = state.split('\n').filter((line) => !line.startsWith(FAILURE_PREFIX));
  return [...kept, `${FAILURE_PREFIX} ${reason.replace(/\s+/g, ' ').trim().slice(0, 400)}`].join('\n');
}

/**
 * The STATE after a rollback or replan: the checkpoint's (rollback) or the current one, with the failure
 * line, written at least as new as the stored snapshot so it wins over the discarded steps'. Undefined
 * when there is no STATE yet (the failure then goes into the first one rendered).
 */
export function stateAfterCorrection(
  checkpointState: string | undefined,
  current: { seq: number; text: string } | undefined,
  correction: { atSeq: number; reason: string },
): { seq: number; text: string } | undefined {
  const base = checkpointState ?? current?.text;
  if (base === undefined) return undefined;
  return { seq: Math.max(current?.seq ?? 0, correction.atSeq), text: withFailure(base, correction.reason) };
}
