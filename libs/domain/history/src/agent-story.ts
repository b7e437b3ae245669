/**
 * An agent's story from its stored history (pure): its state now, each correction's outcome and what
 * followed it, its position over time, the persistence curve data. Derived on read from the records, so
 * a restart of the recorder can neither lose nor double an outcome.
 */
import type { CorrectionAction, DetectorName } from '@wayfinder/contracts';
import type { PersistencePoint } from '@wayfinder/evaluation';
import type { AckRecord, AgentEntry, CorrectionRecord, DeviationRecord, EscalationRecord, FalsePositiveRecord, HistoryRecord, StepSummary } from './history-record';

export const AGENT_STATES = ['working', 'looping', 'recovering', 'frozen', 'done'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

export type CorrectionOutcome = 'recovered' | 'ignored' | 'frozen' | 'pending';

export interface CorrectionStory {
  readonly correction: CorrectionRecord;
  readonly outcome: CorrectionOutcome;
  /** What followed, in a sentence ("progress on m2 at step 41", "a rollback at step 40"). */
  readonly followedBy: string;
  /** Seq of the step or record that decided the outcome. */
  readonly decidedAtSeq: number | null;
}

export interface PositionPoint {
  readonly seq: number;
  readonly ts: string;
  readonly milestoneId: string | null;
  readonly progress: number;
  readonly completed: number;
}

export interface AgentSummary extends AgentEntry {
  readonly tenantId: string;
  readonly state: AgentState;
  readonly deviations: number;
  readonly corrections: number;
  /** The loop start of the newest deviation, the first thing an operator asks. */
  readonly loopStartSeq: number | null;
  /** The detectors that flagged it, in the order they first did. */
  readonly detectors: readonly DetectorName[];
}

export interface AgentTimeline {
  readonly agent: AgentSummary;
  readonly steps: readonly StepSummary[];
  readonly positions: readonly PositionPoint[];
  readonly deviations: ReadonlyArray<DeviationRecord & { falsePositive: boolean }>;
  readonly corrections: readonly CorrectionStory[];
  readonly wouldSend: readonly CorrectionRecord[];
  readonly escalations: ReadonlyArray<EscalationRecord & { open: boolean }>;
  readonly acks: readonly AckRecord[];
  readonly curve: readonly PersistencePoint[];
}

export interface StoryOptions {
  /** Steps after a correction within which progress counts as recovered (the ladder's self-heal window). Default 10. */
  readonly selfHealWindow?: number;
  /** The curve's moving window, in judged steps. Default 10. */
  readonly curveWindow?: number;
}

function isProgress(prev: StepSummary | undefined, s: StepSummary): boolean {
  if (!prev) return false;
  if (s.completed.length > prev.completed.length) return true;
  return s.milestoneId !== null && s.milestoneId === prev.milestoneId && s.progress > prev.progress;
}

function finished(s: StepSummary | undefined): boolean {
  return s !== undefined && s.milestoneId === null && s.completed.length > 0 && s.method !== 'unknown';
}

/** Each correction's outcome: progress within the window → recovered; the next rung or the window passing → ignored; a freeze → frozen. */
export function correctionStories(history: readonly HistoryRecord[], options: StoryOptions = {}): CorrectionStory[] {
  const window = options.selfHealWindow ?? 10;
  const steps = history.filter((r): r is StepSummary => r.kind === 'step');
  const corrections = history.filter((r): r is CorrectionRecord => r.kind === 'correction');
  const acks = history.filter((r): r is AckRecord => r.kind === 'ack' && r.subject === 'correction');
  return corrections.map((c, i) => {
    if (c.action === 'freeze') return { correction: c, outcome: 'frozen', followedBy: 'the agent was frozen and escalated to a person', decidedAtSeq: c.atSeq };
    const ignoredAck = acks.find((a) => a.correctionId === c.correctionId && a.outcome === 'ignored');
    const next = corrections[i + 1];
    let prev = [...steps].reverse().find((s) => s.seq <= c.atSeq);
    for (const s of steps) {
      if (s.seq <= c.atSeq) continue;
      if (next && s.seq > next.atSeq) break;
      if (s.seq > c.atSeq + window) break;
      if (isProgress(prev, s)) {
        const where = s.completed.length > (prev?.completed.length ?? 0) ? `milestone ${s.completed[s.completed.length - 1]} completed` : `progress on ${s.milestoneId}`;
        return { correction: c, outcome: 'recovered', followedBy: `${where} at step ${s.seq}`, decidedAtSeq: s.seq };
      }
      prev = s;
    }
    if (next) {
      const outcome: CorrectionOutcome = next.action === 'freeze' ? 'frozen' : 'ignored';
      return { correction: c, outcome, followedBy: `the loop went on: a ${next.action} at step ${next.atSeq}`, decidedAtSeq: next.atSeq };
    }
    if (ignoredAck) return { correction: c, outcome: 'ignored', followedBy: 'the agent reported it ignored it', decidedAtSeq: null };
    const last = steps[steps.length - 1];
    if (last && last.seq > c.atSeq + window) return { correction: c, outcome: 'ignored', followedBy: `no progress in the ${window} steps after it`, decidedAtSeq: c.atSeq + window };
    return { correction: c, outcome: 'pending', followedBy: 'waiting for the next steps', decidedAtSeq: null };
  });
}

function lastResume(history: readonly HistoryRecord[]): number {
  let at = -Infinity;
  for (const r of history) if (r.kind === 'ack' && r.subject === 'resume') at = Math.max(at, Date.parse(r.ts));
  return at;
}

/** The state now: frozen (a freeze not resumed since), done, looping (a deviation not answered), recovering (a correction pending), working. */
export function agentStateOf(history: readonly HistoryRecord[], stories: readonly CorrectionStory[] = correctionStories(history)): AgentState {
  const resumedAt = lastResume(history);
  const frozenAt = Math.max(
    -Infinity,
    ...history.filter((r) => (r.kind === 'correction' && r.action === 'freeze') || r.kind === 'escalation').map((r) => Date.parse(r.ts)),
  );
  if (frozenAt > resumedAt) return 'frozen';
  const steps = history.filter((r): r is StepSummary => r.kind === 'step');
  const lastStep = steps[steps.length - 1];
  if (finished(lastStep)) return 'done';
  const lastDeviation = [...history].reverse().find((r): r is DeviationRecord => r.kind === 'deviation');
  const lastStory = stories[stories.length - 1];
  const answered = lastStory && lastDeviation && lastStory.correction.deviationIds.includes(lastDeviation.deviationId);
  const lastCorrectionAt = lastStory ? Date.parse(lastStory.correction.ts) : -Infinity;
  if (lastDeviation && !answered && Date.parse(lastDeviation.ts) >= lastCorrectionAt && Date.parse(lastDeviation.ts) > resumedAt) {
    // A deviation after the last progress, not answered by a correction (yet, or ever in shadow mode).
    const progressAfter = steps.some((s, i) => s.seq > lastDeviation.atSeq && isProgress(steps[i - 1], s));
    if (!progressAfter) return 'looping';
  }
  if (lastStory?.outcome === 'pending') return 'recovering';
  return 'working';
}

export function agentSummaryOf(tenantId: string, entry: AgentEntry, history: readonly HistoryRecord[], stories = correctionStories(history)): AgentSummary {
  const deviations = history.filter((r): r is DeviationRecord => r.kind === 'deviation');
  return {
    ...entry,
    tenantId,
    state: agentStateOf(history, stories),
    deviations: deviations.length,
    corrections: stories.length,
    loopStartSeq: deviations.length > 0 ? deviations[deviations.length - 1].loopStartSeq : null,
    detectors: [...new Set(deviations.map((d) => d.detector))],
  };
}

/**
 * The persistence curve of the stored steps (DESIGN §9, shaped for persistenceCurveSvg): a step serves
 * when it moves the agent on its map, or is an action not repeated since the last progress; messages and
 * observations are not judged. Deviations, corrections and milestones mark their steps.
 */
export function historyCurve(history: readonly HistoryRecord[], options: StoryOptions = {}): PersistencePoint[] {
  const window = options.curveWindow ?? 10;
  const steps = history.filter((r): r is StepSummary => r.kind === 'step');
  const deviationsAt = new Map<number, string[]>();
  const correctionsAt = new Map<number, CorrectionAction[]>();
  for (const r of history) {
    if (r.kind === 'deviation') deviationsAt.set(r.atSeq, [...(deviationsAt.get(r.atSeq) ?? []), r.detector]);
    if (r.kind === 'correction') correctionsAt.set(r.atSeq, [...(correctionsAt.get(r.atSeq) ?? []), r.action]);
  }
  const points: PersistencePoint[] = [];
  const recent: boolean[] = [];
  let judged = 0;
  let serving = 0;
  let seen = new Set<string>();
  let prev: StepSummary | undefined;
  steps.forEach((s, index) => {
    const progress = isProgress(prev, s);
    let verdict: boolean | undefined;
    if (progress) verdict = true;
    else if (s.stepKind === 'action' && s.tool !== null) {
      const key = `${s.tool}\u0000${s.argsHash}`;
      verdict = !seen.has(key);
      seen.add(key);
    }
    if (progress) seen = new Set();
    const completedNow = prev && s.completed.length > prev.completed.length ? s.completed[s.completed.length - 1] : undefined;
    prev = s;
    if (verdict === undefined && !deviationsAt.has(s.seq) && !correctionsAt.has(s.seq) && !completedNow) return;
    if (verdict !== undefined) {
      judged++;
      if (verdict) serving++;
      recent.push(verdict);
      if (recent.length > window) recent.shift();
    }
    const point: { -readonly [K in keyof PersistencePoint]: PersistencePoint[K] } = {
      index,
      seq: s.seq,
      consistency: judged === 0 ? 1 : serving / judged,
      window: recent.length === 0 ? 1 : recent.filter(Boolean).length / recent.length,
    };
    if (deviationsAt.has(s.seq)) point.deviations = deviationsAt.get(s.seq);
    if (correctionsAt.has(s.seq)) point.corrections = correctionsAt.get(s.seq);
    if (completedNow) point.milestone = completedNow;
    points.push(point);
  });
  return points;
}

export function agentTimelineOf(tenantId: string, entry: AgentEntry, history: readonly HistoryRecord[], options: StoryOptions = {}): AgentTimeline {
  const stories = correctionStories(history, options);
  const steps = history.filter((r): r is StepSummary => r.kind === 'step');
  const falsePositives = new Set(history.filter((r): r is FalsePositiveRecord => r.kind === 'false-positive').map((r) => r.deviationId));
  const resumedAt = lastResume(history);
  return {
    agent: agentSummaryOf(tenantId, entry, history, stories),
    steps,
    positions: steps.map((s) => ({ seq: s.seq, ts: s.ts, milestoneId: s.milestoneId, progress: s.progress, completed: s.completed.length })),
    deviations: history.filter((r): r is DeviationRecord => r.kind === 'deviation').map((d) => ({ ...d, falsePositive: falsePositives.has(d.deviationId) })),
    corrections: stories,
    wouldSend: history.filter((r): r is CorrectionRecord => r.kind === 'would-send'),
    escalations: history.filter((r): r is EscalationRecord => r.kind === 'escalation').map((e) => ({ ...e, open: Date.parse(e.ts) > resumedAt })),
    acks: history.filter((r): r is AckRecord => r.kind === 'ack'),
    curve: historyCurve(history, options),
  };
}
