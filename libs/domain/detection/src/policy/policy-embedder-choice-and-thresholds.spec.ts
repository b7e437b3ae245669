/**
 * The policy's `embedders` section (DESIGN §5.6): which embedder each detector uses, and thresholds per
 * embedder. A detector compares with the thresholds of the embedder that really serves it.
 */
import { driftThresholds, embedderChoices, repetitionThreshold, withEmbedderThresholds } from './embedder-thresholds';
import { PROFILES } from './profiles';
import { validatePolicy } from './validate';

describe('policy embedders section', () => {
  it('defaults to hashing for every detector in every built-in profile', () => {
    for (const profile of Object.values(PROFILES)) expect(embedderChoices(profile)).toEqual(['hashing', 'hashing', 'hashing', 'hashing']);
  });

  it('takes a per-detector choice and per-embedder thresholds from an overlay, keeping the other values', () => {
    const result = validatePolicy({ embedders: { drift: 'minilm', minilm: { driftGoalThreshold: 0.33 } } });
    if (!result.ok) throw new Error(result.error);
    const policy = result.policy;
    expect(embedderChoices(policy)).toEqual(['minilm', 'hashing', 'hashing', 'hashing']);
    expect(driftThresholds(policy, 'minilm')).toEqual({ goalThreshold: 0.33, milestoneThreshold: PROFILES.balanced.embedders.minilm.driftMilestoneThreshold });
    // Served by hashing (the model is absent): hashing's own thresholds, from the drift section.
    expect(driftThresholds(policy, 'hashing')).toEqual({ goalThreshold: policy.drift.goalThreshold, milestoneThreshold: policy.drift.milestoneThreshold });
    expect(repetitionThreshold(policy, 'bge-zh')).toBe(PROFILES.balanced.embedders['bge-zh'].repetitionThreshold);
  });

  it('names the field of a bad choice or threshold', () => {
    const bad = validatePolicy({ embedders: { drift: 'word2vec' } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/^embedders\.drift: /);
    const range = validatePolicy({ embedders: { minilm: { repetitionThreshold: 1.5 } } });
    if (!range.ok) expect(range.error).toMatch(/embedders\.minilm\.repetitionThreshold/);
    expect(range.ok).toBe(false);
    const unknown = validatePolicy({ embedders: { minilm: { goal: 0.3 } } });
    expect(unknown.ok).toBe(false);
  });

  it('derives monologue and near-duplicate thresholds for the serving embedders, once per policy', () => {
    const policy = { ...PROFILES.balanced, embedders: { ...PROFILES.balanced.embedders, minilm: { monologueThreshold: 0.8, nearArgsSimilarity: 0.7 } } };
    expect(withEmbedderThresholds(policy, 'hashing', 'hashing')).toBe(policy);
    const derived = withEmbedderThresholds(policy, 'minilm', 'minilm');
    expect(derived.monologue.threshold).toBe(0.8);
    expect(derived.nearDuplicate.argsSimilarity).toBe(0.7);
    expect(derived.nearDuplicate.resultSimilarity).toBe(policy.nearDuplicate.resultSimilarity);
    expect(withEmbedderThresholds(policy, 'minilm', 'minilm')).toBe(derived);
  });
});
