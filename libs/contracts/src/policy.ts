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
});

export const MonologueSettings = z.object({ enabled: z.boolean(), warning: count, critical: count, threshold: ratio });
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
export const ConstraintSettings = z.object({ enabled: z.boolean(), dangerousTools: globs });
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
  })
  .strict();
export type PolicyOverlay = z.infer<typeof PolicyOverlay>;

export const TenantPolicy = z.object({
  ...envelope(POLICY_SCHEMA),
  policy: PolicyOverlay,
  tasks: z.record(Id, PolicyOverlay).optional(),
  agents: z.record(Id, PolicyOverlay).optional(),
  /** Shadow mode: detect and record, send no corrections (the would-send topic gets them). */
  shadow: z.boolean().optional(),
  /** Escalations of this tenant are posted here (DESIGN §13). */
  webhook: EscalationWebhook.optional(),
  /** How long a pattern marked false positive stays suppressed for its agent (ms; default 1 h). */
  falsePositiveSuppressMs: z.number().int().positive().max(30 * 24 * 60 * 60 * 1000).optional(),
});
export type TenantPolicy = z.infer<typeof TenantPolicy>;
