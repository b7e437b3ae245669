/** Shapes of the simulated fleet: failure kinds (DESIGN §1), how agents answer corrections, ground truth. */
import type { CorrectionAction, DetectorName, PolicyOverlay } from '@wayfinder/contracts';

/** The failures of DESIGN §1 an agent can be made to fall into. */
export const FAILURE_KINDS = [
  'same_call',
  'unknown_tool',
  'dead_poll',
  'ping_pong',
  'rephrased_search',
  'monologue',
  'stagnation',
  'drift',
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/**
 * The detector whose pattern each failure produces (what it "claims"). Drift has no detector in the
 * pipeline yet; a drifting agent also reaches no milestone, so stagnation is the net that catches it.
 */
export const CLAIMED_DETECTORS: Readonly<Record<FailureKind, readonly DetectorName[]>> = {
  same_call: ['generic_repeat'],
  unknown_tool: ['unknown_tool_repeat'],
  dead_poll: ['known_poll_no_progress'],
  ping_pong: ['ping_pong'],
  rephrased_search: ['near_duplicate_calls'],
  monologue: ['monologue'],
  stagnation: ['stagnation'],
  drift: ['drift', 'stagnation'],
};

/**
 * The weakest correction that breaks the agent out of its failure (field reports: a hint breaks some
 * loops, a rollback more, a replan more still, and some agents need a human: only a freeze stops them).
 */
export type Responsiveness = 'hint' | 'rollback' | 'replan' | 'human';
export const RESPONSIVENESS: readonly Responsiveness[] = ['hint', 'rollback', 'replan', 'human'];

export type AgentState = 'waiting' | 'working' | 'looping' | 'recovering' | 'done' | 'frozen';
export const AGENT_STATES: readonly AgentState[] = ['waiting', 'working', 'looping', 'recovering', 'done', 'frozen'];

/** Ground truth of one injected failure. `startSeq` is null until the agent has fallen into it. */
export interface InjectedFailure {
  readonly tenantId: string;
  readonly agentId: string;
  readonly taskId: string;
  readonly runId: string;
  readonly kind: FailureKind;
  readonly respondsTo: Responsiveness;
  readonly claimedDetectors: readonly DetectorName[];
  startSeq: number | null;
  /** The seq of the first step after the agent left the failure (recovered), if it did. */
  recoveredAtSeq: number | null;
}

/** What a correction did to the agent that received it. */
export type CorrectionEffect =
  /** it broke the failure: the agent changed course */
  | 'recovered'
  /** too weak for this agent: the failure goes on */
  | 'ignored'
  /** the agent was stopped and handed to a human */
  | 'frozen'
  /** the agent was not failing: a false positive */
  | 'unneeded'
  /** the agent had already finished or been frozen */
  | 'late';

export interface ReceivedCorrection {
  readonly eventId: string;
  readonly action: CorrectionAction;
  readonly severity: string;
  readonly atSeq: number;
  /** The agent's last emitted seq when the correction reached it. */
  readonly receivedAtSeq: number;
  readonly effect: CorrectionEffect;
  readonly reason: string;
  /** Content mode: whether the correction fit the failure, and the chance it had to break it. */
  readonly specific?: boolean;
  readonly chance?: number;
}

/** One agent's story, for reports and assertions. */
export interface AgentRecord {
  readonly tenantId: string;
  readonly agentId: string;
  readonly taskId: string;
  readonly runId: string;
  readonly state: AgentState;
  /** The last seq emitted (-1 before the first step). */
  readonly lastSeq: number;
  readonly milestones: readonly string[];
  readonly milestonesDone: ReadonlyArray<{ id: string; seq: number }>;
  readonly failure?: InjectedFailure;
  readonly corrections: readonly ReceivedCorrection[];
}

export interface TenantSetup {
  readonly tenantId: string;
  /** Shown in reports: what this tenant's policy is like. */
  readonly label: string;
  readonly policy: PolicyOverlay;
}

export interface FleetOptions {
  readonly seed: number;
  readonly agents: number;
  /** Index of the first agent (default 0): its id, tenant, task and seeds, so fleets that follow each other never share an id. */
  readonly firstAgent?: number;
  /** Default: three tenants, balanced, strict and lenient. Agents are spread over them round-robin. */
  readonly tenants?: readonly TenantSetup[];
  /** Exactly these failures, on these agents (by index; agent i belongs to tenant i mod tenants). Wins over failures/failureRate. */
  readonly inject?: ReadonlyArray<{ readonly agent: number; readonly kind: FailureKind; readonly respondsTo?: Responsiveness }>;
  /** Exact number of agents that fall into a failure (wins over failureRate). */
  readonly failures?: number;
  /** Share of agents that fall into a failure (default 0.3). */
  readonly failureRate?: number;
  /** Failure kinds to inject, spread evenly (default all of FAILURE_KINDS). */
  readonly kinds?: readonly FailureKind[];
  /** Weights of how agents answer corrections (default per kind, see DEFAULT_RESPONSES). */
  readonly responses?: Partial<Record<Responsiveness, number>>;
  /** Agents sharing one TaskSpec (default 1: one task per agent). */
  readonly agentsPerTask?: number;
  /** Agents start in a random round in [0, stagger] (default 0: all at once). */
  readonly stagger?: number;
  /**
   * How agents answer corrections: 'rank' (default) recovers on any correction at or above the agent's
   * responsiveness; 'content' draws recovery from what the correction says (recovery-model.ts).
   */
  readonly recovery?: 'rank' | 'content';
  /** Timestamp of round 0 (default 2026-01-01T00:00:00Z) when nextSteps is called without a time. */
  readonly startMs?: number;
}

export const CORRECTION_RANK: Readonly<Record<CorrectionAction | Responsiveness, number>> = {
  hint: 0,
  rollback: 1,
  replan: 2,
  freeze: 3,
  human: 3,
};
