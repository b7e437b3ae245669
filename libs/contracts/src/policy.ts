/**
 * TenantPolicy `wayfinder.policy.v1` (DESIGN §6): every threshold of §5 plus tool lists and budgets.
 * `PolicySettings` is a complete, resolved policy; `PolicyOverlay` is what tenants publish (any subset,
 * laid over a built-in profile). Profiles and resolution live in `@wayfinder/detection`.
 */
import { z } from 'zod';
import { envelope, Id } from './common';
import { EscalationWebhook } from './operations';

export const POLICY_SCHEMA = 'wayfinder.policy.v1' as const;
export const PROFILE_NAMES = ['balanced', 'strict', 'lenient', 'openclaw'] as const;
export const ProfileName = z.enum(PROFILE_NAMES);
export type ProfileName = z.infer<typeof ProfileName>;

const count = z.number().int().positive();
const ratio = z.number().min(0).max(1);
const globs = z.array(z.string().min(1).max(256)).max(256);

export const LoopSettings = z.object({
  historySize: count.max(1024),
  warning: count,
  critical: count,
  globalBreaker: count,
  unknownTool: count,
  errorRepeatWarning: count,
  errorRepeatCritical: count,
  postCompactionWindow: count,
  pollTools: globs,
  /**
   * An agent that starts over at seq 0 under the same runId at least this long (ms, by step time) after
   * its last step is a new run, not a redelivery (default 60,000).
   */
  runRestartGapMs: z.number().int().positive().optional(),
  /**
   * `error_repeat` across different errors: the newest consecutive failures of the same tool, whatever the
   * errors and the args (project rule P3); absent = off (the upstream table only).
   */
  failureStreakWarning: count.optional(),
  failureStreakCritical: count.optional(),
  /**
   * `error_repeat` for work that keeps coming back empty (project rule P7): consecutive outcomes of one
   * tool that failed or found nothing (`emptyResultPatterns`); absent = off.
   */
  /**
   * `error_repeat` across the agent's runs (project rule P8): the same tool failing with the same error in
   * run after run (sub-agents started afresh), counted with errorRepeatWarning / errorRepeatCritical.
   */
  errorRepeatAcrossRuns: z.boolean().optional(),
  fruitlessStreakWarning: count.optional(),
  fruitlessStreakCritical: count.optional(),
  /**
   * `error_repeat` for the same call failing again and again (project rule P10): consecutive failures of one
   * call (the same tool and args, nothing in between), whatever the errors say; absent = off.
   */
  sameCallFailureWarning: count.optional(),
  sameCallFailureCritical: count.optional(),
  /**
   * What a successful result that found nothing reads like, line by line (RE2 sources, case-insensitive):
   * "not found", "no results", `files: []`. A result is empty when at least half of its lines match.
   */
  emptyResultPatterns: z.array(z.string().min(1).max(512)).max(64).optional(),
});

export const NearDuplicateSettings = z.object({
  enabled: z.boolean(),
  /** Similarity of two calls' args (hashing embedder cosine) at or above which they are near-duplicates. */
  argsSimilarity: ratio,
  /** Similarity of results at or above which a result "brings nothing new". */
  resultSimilarity: ratio,
  warning: count,
  critical: count,
  /** Tools never considered (beyond `exemptTools`). */
  ignoreTools: globs,
  /** Failed calls: similarity of error texts at or above which a failure repeats the previous one (default: resultSimilarity). */
  errorSimilarity: ratio.optional(),
  /** Args at least this long (code, documents) are compared with `longArgsSimilarity` when the call succeeds. */
  longArgsChars: z.number().int().positive().optional(),
  /** Args similarity for long args (iterating on code legitimately produces similar code); default argsSimilarity. */
  longArgsSimilarity: ratio.optional(),
  /**
   * Errors worth retrying (regex sources, case-insensitive: timeouts, 429/503, connection resets): a retry
   * after one of them is what an agent should do, so it is no evidence of a loop (error_repeat still counts).
   */
  retryableErrors: z.array(z.string().min(1).max(512)).max(64).optional(),
  /**
   * Repeats needed for a warning when the repeated call succeeded (default `warning`): a failure repeated is
   * strong evidence of no progress, a success that merely reads like the previous one is weaker.
   */
  successWarning: count.optional(),
  /**
   * The early stage (project rule P1, "The third identical call"): repeats for a warning, judged when the next
   * call arrives, when every call of the chain had the same args (canonical JSON) and the same successful
   * normalized result; absent = off. 2 = the third identical call.
   */
  identicalWarning: count.optional(),
  /**
   * Volatile ids in arguments (project rule P11): a call whose args differ from the previous call of the
   * tool only in request ids, nonces, UUIDs, timestamps is the same call for the chain of repeats, so a poll
   * with a fresh poll id whose result does not change is a repeat; absent or false = exact args only.
   */
  volatileArgs: z.boolean().optional(),
});

export const MonologueSettings = z.object({
  enabled: z.boolean(),
  warning: count,
  critical: count,
  threshold: ratio,
  /** Consecutive assistant messages with no action between them, whatever their text (project rule P6); absent = off. */
  noActionWarning: count.optional(),
  noActionCritical: count.optional(),
  /** Messages are compared with their numbers masked (project rule P6): "attempt 1", "attempt 2" read alike. */
  ignoreNumbers: z.boolean().optional(),
});
/** `cycle_repeat` (project rule P2): the same sequence of 2–maxPeriod calls repeated. */
export const CycleSettings = z.object({
  enabled: z.boolean(),
  maxPeriod: z.number().int().min(2).max(8),
  /** Full repetitions of the cycle (the new call's included) for a warning when its outcomes are stable. */
  warning: count.min(2),
  /** Repetitions for a critical when stable, and for a warning when the outcomes change. */
  critical: count.min(2),
});
/** `content_repetition` (project rule P4): one chunk repeated inside a single assistant message. */
export const ContentRepetitionSettings = z.object({
  enabled: z.boolean(),
  /** Chunks (sentences, lines) shorter than this are not compared. */
  minChunkChars: count.max(4096),
  warning: count.min(2),
  critical: count.min(2),
  /**
   * A short phrase (under minChunkChars) repeated back to back this many times in one message (project rule
   * P4, "short phrases"); absent = off.
   */
  phraseWarning: count.min(2).optional(),
  phraseCritical: count.min(2).optional(),
});
/** `compaction_loop` (project rule P5): compactions following each other with little work between. */
export const CompactionLoopSettings = z.object({
  enabled: z.boolean(),
  /** A compaction after fewer actions than this since the previous one continues the chain. */
  minActionsBetween: count,
  warning: count.min(2),
  critical: count.min(2),
});
export const RepetitionSettings = z.object({ enabled: z.boolean(), window: count.min(2), threshold: ratio });
export const StagnationSettings = z.object({
  enabled: z.boolean(),
  warningSteps: count,
  criticalSteps: count,
  /** Time-based: warning / critical after factor × expectedStepMs with no progress. */
  warningFactor: z.number().positive(),
  criticalFactor: z.number().positive(),
});
export const DriftSettings = z.object({
  enabled: z.boolean(),
  milestoneThreshold: ratio,
  goalThreshold: ratio,
  toleranceSteps: count,
});
export const ConstraintSettings = z.object({
  enabled: z.boolean(),
  dangerousTools: globs,
  /** Check actions and final outputs against the charter's constraints (rules in @wayfinder/cognitive-map). */
  rules: z.boolean(),
  /** Embedder fallback for prohibitions no rule covers: similarity of the action to the constraint at or above this is a warning. */
  embedderThreshold: ratio,
});
/**
 * `verification_failed_repeat`: the same milestone reported failed this many times is critical.
 * `unverified_claim` (PROJECT-RULES.md P9): claims of done / blocked / finished checked against what the
 * tools said. `claims` absent or false = off; `blockedAttempts`: failed calls at the impasse that back a
 * "blocked" (default 1); `claimCritical`: unverified claims of one kind in a run that are critical (default 2).
 */
export const VerificationSettings = z.object({
  enabled: z.boolean(),
  failures: count,
  claims: z.boolean().optional(),
  blockedAttempts: count.optional(),
  claimCritical: count.optional(),
});
/** `align_check_failed`: read the agent's [ALIGN-CHECK] blocks. */
export const AlignCheckSettings = z.object({ enabled: z.boolean() });
/** `plan_off_goal`: each sub-goal of a plan must serve an anchor or milestone (terms first, then embedder similarity ≥ threshold). */
export const PlanCheckSettings = z.object({ enabled: z.boolean(), threshold: ratio });
/** Anchor changes proposed by feedback or a plan: applied at once with autoAccept, else on confirmation. */
export const AnchorSettings = z.object({ autoAccept: z.boolean() });
/** `cross_agent_cycle`: delegations between a tenant's agents. */
export const CrossAgentSettings = z.object({
  enabled: z.boolean(),
  /** Delegations around one cycle with no milestone progress: warning / critical. */
  warning: count,
  critical: count,
  /** The same sub-task delegated to the same agent this many times with no progress. */
  sameTaskRepeat: count,
  /** Delegation edges kept per tenant (oldest dropped first). */
  maxEdgesPerTenant: count.max(100_000),
});
export const BudgetSettings = z.object({
  enabled: z.boolean(),
  warningRatio: ratio,
  maxSteps: count.optional(),
  maxTokens: count.optional(),
  maxCostUsd: z.number().positive().optional(),
});
export const NormalizationSettings = z.object({
  /** Extra volatile keys dropped from structured results, per tool (`*` for all tools). */
  volatileKeys: z.record(z.array(z.string().min(1).max(128)).max(128)),
  /** Extra volatile regex patterns replaced in result text, per tool (`*` for all tools). */
  volatilePatterns: z.record(z.array(z.string().min(1).max(512)).max(64)),
});
export const CorrectionSettings = z.object({
  toleranceSteps: count,
  explorationBudget: ratio,
  cooldownSteps: z.number().int().nonnegative(),
  selfHealWindow: count,
  maxRollbacksPerMilestone: z.number().int().nonnegative(),
  maxCorrectionsPerMilestone: count,
});

/** The embedders a policy can choose per detector (DESIGN §5.6). */
export const EMBEDDER_NAMES = ['hashing', 'minilm', 'bge-zh'] as const;
export const EmbedderName = z.enum(EMBEDDER_NAMES);
export type EmbedderName = z.infer<typeof EmbedderName>;
/**
 * Thresholds calibrated for one semantic embedder (cosines of different embedders are not comparable).
 * The detector sections' own thresholds are the hashing embedder's; a field left out here uses them.
 */
export const EmbedderThresholds = z
  .object({
    driftMilestoneThreshold: ratio,
    driftGoalThreshold: ratio,
    repetitionThreshold: ratio,
    monologueThreshold: ratio,
    nearArgsSimilarity: ratio,
    nearResultSimilarity: ratio,
    nearErrorSimilarity: ratio,
    nearLongArgsSimilarity: ratio,
  })
  .partial()
  .strict();
export type EmbedderThresholds = z.infer<typeof EmbedderThresholds>;
/** Which embedder each text-comparing detector uses, and the thresholds of the semantic ones. */
export const EmbedderSettings = z.object({
  drift: EmbedderName,
  semanticRepetition: EmbedderName,
  monologue: EmbedderName,
  nearDuplicate: EmbedderName,
  minilm: EmbedderThresholds,
  'bge-zh': EmbedderThresholds,
});
export type EmbedderSettings = z.infer<typeof EmbedderSettings>;

export const PolicySettings = z.object({
  profile: ProfileName,
  loop: LoopSettings,
  exemptTools: globs,
  nearDuplicate: NearDuplicateSettings,
  monologue: MonologueSettings,
  repetition: RepetitionSettings,
  stagnation: StagnationSettings,
  drift: DriftSettings,
  constraints: ConstraintSettings,
  budget: BudgetSettings,
  normalization: NormalizationSettings,
  correction: CorrectionSettings,
  embedders: EmbedderSettings,
  verification: VerificationSettings,
  alignCheck: AlignCheckSettings,
  planCheck: PlanCheckSettings,
  anchors: AnchorSettings,
  crossAgent: CrossAgentSettings,
  // The project's detectors beyond the upstream table (PROJECT-RULES.md); absent = off.
  cycle: CycleSettings.optional(),
  contentRepetition: ContentRepetitionSettings.optional(),
  compactionLoop: CompactionLoopSettings.optional(),
  /**
   * Tools that hand in the run's answer (project rule P12): once one is called, restating the answer is the
   * end of the run, not a loop; absent = off.
   */
  finalAnswerTools: globs.optional(),
});
export type PolicySettings = z.infer<typeof PolicySettings>;

/** Any subset of the settings; sections are partial too. Unknown keys are errors, not silently ignored. */
export const PolicyOverlay = z
  .object({
    profile: ProfileName.optional(),
    loop: LoopSettings.partial().strict().optional(),
    exemptTools: globs.optional(),
    nearDuplicate: NearDuplicateSettings.partial().strict().optional(),
    monologue: MonologueSettings.partial().strict().optional(),
    repetition: RepetitionSettings.partial().strict().optional(),
    stagnation: StagnationSettings.partial().strict().optional(),
    drift: DriftSettings.partial().strict().optional(),
    constraints: ConstraintSettings.partial().strict().optional(),
    budget: BudgetSettings.partial().strict().optional(),
    normalization: NormalizationSettings.partial().strict().optional(),
    correction: CorrectionSettings.partial().strict().optional(),
    embedders: EmbedderSettings.partial().strict().optional(),
    verification: VerificationSettings.partial().strict().optional(),
    alignCheck: AlignCheckSettings.partial().strict().optional(),
    planCheck: PlanCheckSettings.partial().strict().optional(),
    anchors: AnchorSettings.partial().strict().optional(),
    crossAgent: CrossAgentSettings.partial().strict().optional(),
    cycle: CycleSettings.partial().strict().optional(),
    contentRepetition: ContentRepetitionSettings.partial().strict().optional(),
    compactionLoop: CompactionLoopSettings.partial().strict().optional(),
    finalAnswerTools: globs.optional(),
  })
  .strict();
export type PolicyOverlay = z.infer<typeof PolicyOverlay>;

/** The tenant's ingest rate limit at the gateway (events per second, burst); defaults apply when absent. */
export const IngestLimitsOverlay = z
  .object({
    eventsPerSecond: z.number().positive().max(1_000_000),
    burst: z.number().int().positive().max(10_000_000),
  })
  .partial()
  .strict();
export type IngestLimitsOverlay = z.infer<typeof IngestLimitsOverlay>;

/** The tenant's LLM proxy (DESIGN §12): where `POST /v1/chat/completions` forwards, and how long it waits. */
export const ProxySettings = z
  .object({
    /** The OpenAI-compatible base URL, e.g. `https://api.openai.com/v1` (the proxy appends `/chat/completions`). */
    upstream: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL'),
    /** The longest wait for the upstream's answer, and between two chunks of a stream (ms; default 120,000). */
    timeoutMs: z.number().int().min(100).max(600_000).optional(),
  })
  .strict();
export type ProxySettings = z.infer<typeof ProxySettings>;

export const TenantPolicy = z.object({
  ...envelope(POLICY_SCHEMA),
  policy: PolicyOverlay,
  ingest: IngestLimitsOverlay.optional(),
  tasks: z.record(Id, PolicyOverlay).optional(),
  agents: z.record(Id, PolicyOverlay).optional(),
  /** Shadow mode: detect and record, send no corrections (the would-send topic gets them). */
  shadow: z.boolean().optional(),
  /** Escalations of this tenant are posted here (DESIGN §13). */
  webhook: EscalationWebhook.optional(),
  /** The LLM proxy's upstream for this tenant (else WAYFINDER_PROXY_UPSTREAM). */
  proxy: ProxySettings.optional(),
  /** How long a pattern marked false positive stays suppressed for its agent (ms; default 1 h). */
  falsePositiveSuppressMs: z.number().int().positive().max(30 * 24 * 60 * 60 * 1000).optional(),
  /**
   * How long the operators' history (steps, deviations, corrections, escalations) of this tenant is kept
   * (ms; default 7 days). The operator bounds it (WAYFINDER_HISTORY_RETENTION_MAX_MS, default 30 days): a
   * policy asking more is refused.
   */
  historyRetentionMs: z.number().int().min(60_000).max(365 * 24 * 60 * 60 * 1000).optional(),
  /**
   * How long an agent of this tenant may stay idle before the stream services evict its state from memory
   * (ms; the durable copy stays and is restored on its next event). Default: the deployment's
   * `WAYFINDER_STATE_IDLE_TTL_MS` (15 min).
   */
  stateIdleTtlMs: z.number().int().min(1_000).max(7 * 24 * 60 * 60 * 1000).optional(),
});
export type TenantPolicy = z.infer<typeof TenantPolicy>;
