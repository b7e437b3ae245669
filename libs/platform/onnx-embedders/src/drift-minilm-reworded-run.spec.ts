/** @jest-environment ./libs/platform/onnx-embedders/testing/onnx-jest-environment.js */
/**
 * Drift on MiniLM with the thresholds the balanced profile ships for it: a run whose searches reword the
 * goal (few shared words, same meaning) stays quiet; the same run wandering to unrelated searches is
 * flagged. Vectors come from the per-agent cache, prefetched step by step as replay does.
 */
import type { PolicySettings, StepEvent } from '@wayfinder/contracts';
import { driftThresholds, PROFILES } from '@wayfinder/detection';
import { EmbeddingCache, HashingEmbedder } from '@wayfinder/embeddings';
import { createNavigator } from '@wayfinder/navigation';
import { loadRequiredModel } from './model-files.testing';
import type { OnnxEmbedder } from './onnx-embedder';

const policy: PolicySettings = { ...PROFILES.balanced, embedders: { ...PROFILES.balanced.embedders, drift: 'minilm' } };

const GOAL = 'Compare electric scooter brands on price, battery range and weight, then write a short report';
const ON_TOPIC = [
  'how far can a Xiaomi e-scooter travel on one charge',
  'Segway Ninebot kick scooter kilograms and cost',
  'which electric kick scooter is the lightest to carry',
  'cheapest e-scooter models sold this year and what they cost',
  'review of battery life on popular commuter scooters',
  'scooter makers compared by distance per charge',
  'how heavy is the Pure Air Pro electric scooter',
  'price list of Apollo and Kaabo scooters',
];
const OFF_TOPIC = [
  'chocolate cake recipe with cocoa powder and butter',
  'history of the Roman empire under Augustus',
  'how to repot an orchid without damaging roots',
  'best hiking trails in the Swiss alps in autumn',
  'knitting pattern for a wool winter scarf',
  'rules of cricket explained for beginners',
  'how to descale a coffee machine with vinegar',
  'medieval castles to visit in Scotland',
];

function run(queries: string[], agentId: string): StepEvent[] {
  const base = (seq: number) => ({ schema: 'wayfinder.step.v1' as const, eventId: `${agentId}-${seq}`, tenantId: 't1', agentId, taskId: 'task-1', runId: 'r1', seq, ts: '2026-01-01T00:00:00.000Z' });
  return [
    { ...base(0), kind: 'message', message: { role: 'user', text: GOAL } },
    ...queries.map((query, i): StepEvent => ({ ...base(i + 1), kind: 'action', action: { tool: 'web_search', args: { query } } })),
  ];
}

describe('drift with minilm on a reworded run', () => {
  let minilm: OnnxEmbedder;
  beforeAll(async () => {
    minilm = await loadRequiredModel('minilm');
  });
  afterAll(() => minilm.release());

  async function driftOf(steps: StepEvent[]) {
    const vectors = new EmbeddingCache({ hashing: new HashingEmbedder(), semantic: [minilm] });
    const navigator = createNavigator({ policy, vectors, corrections: false });
    const found = [];
    for (const step of steps) {
      await navigator.prepare([step]);
      found.push(...navigator.onStep(step).deviations.filter((d) => d.detector === 'drift'));
    }
    expect(vectors.stats.misses).toBe(0);
    expect(vectors.stats.embedded).toBeGreaterThan(steps.length - 1);
    return found;
  }

  it('stays quiet while every search serves the goal in other words', async () => {
    expect(await driftOf(run(ON_TOPIC, 'on-topic'))).toEqual([]);
  });

  it('flags the goal curve, with minilm\'s threshold, once the run wanders off', async () => {
    const found = await driftOf(run([...ON_TOPIC.slice(0, 4), ...OFF_TOPIC], 'wanders'));
    const goal = found.filter((d) => d.evidence.curve === 'goal');
    expect(goal.length).toBeGreaterThan(0);
    expect(goal[0].loopStartSeq).toBeGreaterThanOrEqual(5);
    expect(goal[0].evidence.threshold).toBe(driftThresholds(policy, 'minilm').goalThreshold);
    expect(goal[0].evidence.threshold).not.toBe(policy.drift.goalThreshold);
  });
});
