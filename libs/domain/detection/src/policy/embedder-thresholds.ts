/**
 * Thresholds per embedder (DESIGN §5.6): cosines of different embedders are not comparable, so a
 * detector compares against the thresholds of the embedder that really serves it. The detector sections'
 * own thresholds are the hashing embedder's; `embedders.<name>` holds the semantic ones' (a field left out
 * there falls back to the section's). A semantic choice whose model is absent is served by hashing, and
 * then hashing's thresholds apply.
 */
import type { EmbedderName, EmbedderThresholds, PolicySettings } from '@wayfinder/contracts';

export type EmbeddingDetector = 'drift' | 'semanticRepetition' | 'monologue' | 'nearDuplicate';

/** The embedder a detector chose in the policy (hashing when the policy says nothing). */
export function embedderChoice(policy: PolicySettings, detector: EmbeddingDetector): EmbedderName {
  return policy.embedders?.[detector] ?? 'hashing';
}

function calibrated(policy: PolicySettings, served: EmbedderName): EmbedderThresholds | undefined {
  return served === 'hashing' ? undefined : policy.embedders?.[served];
}

export function driftThresholds(policy: PolicySettings, served: EmbedderName): { milestoneThreshold: number; goalThreshold: number } {
  const t = calibrated(policy, served);
  return {
    milestoneThreshold: t?.driftMilestoneThreshold ?? policy.drift.milestoneThreshold,
    goalThreshold: t?.driftGoalThreshold ?? policy.drift.goalThreshold,
  };
}

export function repetitionThreshold(policy: PolicySettings, served: EmbedderName): number {
  return calibrated(policy, served)?.repetitionThreshold ?? policy.repetition.threshold;
}

const derived = new WeakMap<PolicySettings, Map<string, PolicySettings>>();

/**
 * The policy with monologue's and near_duplicate_calls' thresholds for the embedders serving them: the
 * policy itself when both are hashing (the common case, no allocation), else one derived copy per policy
 * object and pair of embedders.
 */
export function withEmbedderThresholds(policy: PolicySettings, monologue: EmbedderName, nearDuplicate: EmbedderName): PolicySettings {
  if (monologue === 'hashing' && nearDuplicate === 'hashing') return policy;
  let byPair = derived.get(policy);
  if (!byPair) derived.set(policy, (byPair = new Map()));
  const key = `${monologue}|${nearDuplicate}`;
  let out = byPair.get(key);
  if (!out) {
    const m = calibrated(policy, monologue);
    const n = calibrated(policy, nearDuplicate);
    const near = policy.nearDuplicate;
    out = {
      ...policy,
      monologue: { ...policy.monologue, threshold: m?.monologueThreshold ?? policy.monologue.threshold },
      nearDuplicate: {
        ...near,
        argsSimilarity: n?.nearArgsSimilarity ?? near.argsSimilarity,
        resultSimilarity: n?.nearResultSimilarity ?? near.resultSimilarity,
        ...((n?.nearErrorSimilarity ?? near.errorSimilarity) !== undefined && { errorSimilarity: n?.nearErrorSimilarity ?? near.errorSimilarity }),
        ...((n?.nearLongArgsSimilarity ?? near.longArgsSimilarity) !== undefined && { longArgsSimilarity: n?.nearLongArgsSimilarity ?? near.longArgsSimilarity }),
      },
    };
    byPair.set(key, out);
  }
  return out;
}

/** The embedders a policy chooses, one per text-comparing detector (what a process must load for it). */
export function embedderChoices(policy: PolicySettings): EmbedderName[] {
  return (['drift', 'semanticRepetition', 'monologue', 'nearDuplicate'] as const).map((d) => embedderChoice(policy, d));
}
