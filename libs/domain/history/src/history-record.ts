/**
 * What the history store keeps (DESIGN §13): per tenant and agent, a compact summary of each step, every
 * deviation, correction, escalation and acknowledgement, the corrections a shadow-mode tenant would have
 * received, and operators' false-positive marks. Records are plain JSON, identified by `id` (unique per
 * tenant: the kind and the source event's id), so writing one twice changes nothing.
 */
import type { CorrectionAction, DeviationLevel, DetectorName, Position, Severity } from '@wayfinder/contracts';

export const HISTORY_KINDS = ['step', 'deviation', 'correction', 'would-send', 'escalation', 'ack', 'false-positive'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

interface RecordBase {
  /** Unique per tenant: `<kind>:<source event id>`. */
  readonly id: string;
  readonly tenantId: string;
  readonly agentId: string;
  readonly taskId: string;
  readonly runId: string | null;
  /** ISO-8601, the source event's time. */
  readonly ts: string;
}

/** One step, compactly: what it was and where it left the agent on its map. */
export interface StepSummary extends RecordBase {
  readonly kind: 'step';
  readonly seq: number;
  readonly stepKind: string;
  readonly tool: string | null;
  /** Hex of argsHash(tool, args) for actions: the identity the repeat rule of the curve compares. */
  readonly argsHash: string | null;
  readonly milestoneId: string | null;
  readonly progress: number;
  readonly completed: readonly string[];
  readonly method: Position['method'];
  /** The step's milestone signal (`m2 done`) or a message's type (`output`), when any. */
  readonly note: string | null;
  readonly tokens: number | null;
  /** What the step carried, cut to DETAIL_CHARS each (absent on records written before it was kept). */
  readonly detail?: StepDetail;
}

/** A step's arguments (action), output (observation, message, plan…), error and latency, for the agent page. */
export interface StepDetail {
  readonly input?: string;
  readonly output?: string;
  readonly error?: string;
  readonly latencyMs?: number;
}

/** Each detail text is cut to this many characters: the history keeps summaries, not transcripts. */
export const DETAIL_CHARS = 600;

export interface DeviationRecord extends RecordBase {
  readonly kind: 'deviation';
  readonly deviationId: string;
  readonly detector: DetectorName;
  readonly level: DeviationLevel;
  readonly count: number;
  readonly atSeq: number;
  readonly loopStartSeq: number;
  readonly message: string;
  readonly tool: string | null;
  readonly argsHash: string | null;
  /** The detector's evidence as compact JSON, cut to DETAIL_CHARS (absent on older records). */
  readonly evidence?: string;
}

/** A correction sent (`correction`) or, for a shadow-mode tenant, the one that would have been sent. */
export interface CorrectionRecord extends RecordBase {
  readonly kind: 'correction' | 'would-send';
  readonly correctionId: string;
  readonly action: CorrectionAction;
  readonly severity: Severity;
  readonly atSeq: number;
  readonly deviationIds: readonly string[];
  /** What it said: the hint's text, the rollback's milestone, the replan's reason, the freeze's reason. */
  readonly summary: string;
}

export interface EscalationRecord extends RecordBase {
  readonly kind: 'escalation';
  readonly escalationId: string;
  readonly reason: string;
  readonly loopStartSeq: number | null;
  readonly lastVerifiedMilestoneId: string | null;
  readonly deviations: number;
  readonly correctionsTried: readonly CorrectionAction[];
}

/** An agent's or operator's acknowledgement: a correction applied/ignored, or a frozen agent resumed. */
export interface AckRecord extends RecordBase {
  readonly kind: 'ack';
  readonly subject: 'correction' | 'resume';
  readonly correctionId: string | null;
  readonly outcome: 'applied' | 'ignored' | null;
  readonly note: string | null;
}

export interface FalsePositiveRecord extends RecordBase {
  readonly kind: 'false-positive';
  readonly deviationId: string;
  readonly detector: DetectorName;
  readonly tool: string | null;
  readonly argsHash: string | null;
  /** ISO-8601: the pattern is suppressed for this agent until then. */
  readonly until: string;
}

export type HistoryRecord = StepSummary | DeviationRecord | CorrectionRecord | EscalationRecord | AckRecord | FalsePositiveRecord;

/** An agent as the store knows it: its latest task and run, when it was first and last seen. */
export interface AgentEntry {
  readonly agentId: string;
  readonly taskId: string;
  readonly runId: string | null;
  readonly firstSeen: string;
  readonly lastSeen: string;
  /** Seq of the newest step recorded (null before the first step). */
  readonly lastSeq: number | null;
}

const KIND_RANK: Record<HistoryKind, number> = { step: 0, deviation: 1, 'false-positive': 2, correction: 3, 'would-send': 3, escalation: 4, ack: 5 };

/** Order of a history: by time, then by step (seq), then a step before what it caused. */
export function compareRecords(a: HistoryRecord, b: HistoryRecord): number {
  const t = Date.parse(a.ts) - Date.parse(b.ts);
  if (t !== 0) return t;
  const sa = seqOf(a);
  const sb = seqOf(b);
  if (sa !== sb) return sa - sb;
  return KIND_RANK[a.kind] - KIND_RANK[b.kind] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function seqOf(record: HistoryRecord): number {
  switch (record.kind) {
    case 'step':
      return record.seq;
    case 'deviation':
    case 'correction':
    case 'would-send':
      return record.atSeq;
    default:
      return Number.MAX_SAFE_INTEGER;
  }
}
