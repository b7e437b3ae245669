/**
 * What navigation publishes: LocalizedStep `wayfinder.localized.v1`, Deviation `wayfinder.deviation.v1`,
 * Correction `wayfinder.correction.v1` and Escalation `wayfinder.escalation.v1` (DESIGN §4).
 */
import { z } from 'zod';
import { envelope, Id, JsonValue } from './common';
import { StepEvent } from './step';

export const LOCALIZED_SCHEMA = 'wayfinder.localized.v1' as const;
export const DEVIATION_SCHEMA = 'wayfinder.deviation.v1' as const;
export const CORRECTION_SCHEMA = 'wayfinder.correction.v1' as const;
export const ESCALATION_SCHEMA = 'wayfinder.escalation.v1' as const;
export const DETECTED_SCHEMA = 'wayfinder.detected.v1' as const;

export const Position = z.object({
  milestoneId: Id.nullable(),
  completed: z.array(Id),
  progress: z.number().min(0).max(1),
  confidence: z.number().min(0).max(1),
  method: z.enum(['signal', 'validator', 'similarity', 'unknown']),
});
export type Position = z.infer<typeof Position>;

/** The position of a step whose task has no map (none posted, or it did not come within the hold). */
export const NO_MAP_POSITION: Position = { milestoneId: null, completed: [], progress: 0, confidence: 0, method: 'unknown' };

/**
 * The position detection and the correction ladder read, as the Navigator gives it: none for a step
 * without a map, else the localizer's — also when its method is `unknown` (not sure yet), as it still
 * names the milestone it assumes (drift's milestone curve reads it).
 */
export function positionOnMap(position: Position): Position | undefined {
  const noMap = position.method === 'unknown' && position.milestoneId === null && position.completed.length === 0;
  return noMap ? undefined : position;
}

export const LocalizedStep = z.object({
  ...envelope(LOCALIZED_SCHEMA),
  step: StepEvent,
  position: Position,
});
export type LocalizedStep = z.infer<typeof LocalizedStep>;

export const DETECTORS = [
  'generic_repeat',
  'known_poll_no_progress',
  'ping_pong',
  'unknown_tool_repeat',
  'error_repeat',
  'near_duplicate_calls',
  'global_circuit_breaker',
  'compaction_loop_persisted',
  'monologue',
  'semantic_repetition',
  'stagnation',
  'drift',
  'constraint_violation',
  'budget',
  // The rest of the navigator (issue 18): failed verification, the agent's self-check, plans, delegation cycles.
  'verification_failed_repeat',
  'align_check_failed',
  'plan_off_goal',
  'cross_agent_cycle',
  'cycle_repeat',
  'content_repetition',
  'compaction_loop',
  // Claims of done, blocked or finished that the tools' results do not back (issue #32).
  'unverified_claim',
] as const;
export const DetectorName = z.enum(DETECTORS);
export type DetectorName = z.infer<typeof DetectorName>;

/** The detectors whose deviations count as loops in evaluation (shared/data README). */
export const LOOP_FAMILY: readonly DetectorName[] = [
  'generic_repeat',
  'known_poll_no_progress',
  'ping_pong',
  'unknown_tool_repeat',
  'error_repeat',
  'global_circuit_breaker',
  'compaction_loop_persisted',
  'near_duplicate_calls',
  'semantic_repetition',
  'monologue',
  'cycle_repeat',
  'content_repetition',
  'compaction_loop',
];

export const DeviationLevel = z.enum(['warning', 'critical']);
export type DeviationLevel = z.infer<typeof DeviationLevel>;

export const Deviation = z.object({
  ...envelope(DEVIATION_SCHEMA),
  agentId: Id,
  taskId: Id,
  runId: Id.nullable(),
  detector: DetectorName,
  level: DeviationLevel,
  count: z.number().nonnegative(),
  atSeq: z.number().int().nonnegative(),
  loopStartSeq: z.number().int().nonnegative(),
  evidence: z.record(JsonValue),
  message: z.string().max(4096),
});
export type Deviation = z.infer<typeof Deviation>;

/**
 * `wayfinder.detected.v1`: what the detector worker hands the correction engine when the stages run as
 * separate services — a localized step with the deviations it caused, one message, so the ladder sees the
 * step before its deviations as the Navigator does (two topics read side by side would not keep that
 * order). A timer's deviations (stagnation) come without a step.
 */
export const DetectedStep = z.object({
  ...envelope(DETECTED_SCHEMA),
  agentId: Id,
  step: StepEvent.optional(),
  position: Position.optional(),
  deviations: z.array(Deviation),
});
export type DetectedStep = z.infer<typeof DetectedStep>;

export const Severity = z.enum(['mild', 'moderate', 'severe', 'critical']);
export type Severity = z.infer<typeof Severity>;

const correctionBase = {
  ...envelope(CORRECTION_SCHEMA),
  agentId: Id,
  taskId: Id,
  runId: Id.nullable(),
  deviationIds: z.array(Id).min(1),
  severity: Severity,
  atSeq: z.number().int().nonnegative(),
  reason: z.string().max(4096),
};

/**
 * The id of the checkpoint taken when an agent completes `milestoneId` at step `seq`: the correction
 * engine names it in a rollback and the memory service pushes it on the agent's stack, so both compute it
 * here (issue 14) and a rollback always names a checkpoint memory holds.
 */
export function checkpointId(taskId: string, milestoneId: string, seq: number): string {
  return `cp:${taskId}:${milestoneId}:${seq}`;
}

export const Correction = z.discriminatedUnion('action', [
  z.object({ ...correctionBase, action: z.literal('hint'), hint: z.object({ text: z.string().max(8192) }) }),
  z.object({
    ...correctionBase,
    action: z.literal('rollback'),
    rollback: z.object({ checkpointId: Id.nullable(), milestoneId: Id.nullable(), discardAfterSeq: z.number().int() }),
  }),
  z.object({
    ...correctionBase,
    action: z.literal('replan'),
    replan: z.object({ fromMilestoneId: Id.nullable(), remaining: z.array(Id), reason: z.string().max(4096) }),
  }),
  z.object({
    ...correctionBase,
    action: z.literal('freeze'),
    freeze: z.object({ escalationId: Id, reason: z.string().max(4096) }),
  }),
]);
export type Correction = z.infer<typeof Correction>;
export type CorrectionAction = Correction['action'];

export const Escalation = z.object({
  ...envelope(ESCALATION_SCHEMA),
  agentId: Id,
  taskId: Id,
  runId: Id.nullable(),
  reason: z.string().max(4096),
  lastVerifiedMilestoneId: Id.nullable(),
  loopStartSeq: z.number().int().nonnegative().nullable(),
  deviations: z.array(Deviation).max(256),
  correctionsTried: z.array(Correction).max(64),
});
export type Escalation = z.infer<typeof Escalation>;
