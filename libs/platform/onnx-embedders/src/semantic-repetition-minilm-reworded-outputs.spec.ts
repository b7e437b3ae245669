/** @jest-environment ./libs/platform/onnx-embedders/testing/onnx-jest-environment.js */
/**
 * semantic_repetition on MiniLM, for a tenant that wants reworded repetition caught (minilm's
 * repetitionThreshold lowered to 0.6; rewordings of one sentence score 0.63–0.9 with MiniLM): five outputs
 * that say the same thing in different words are a repetition for the model, while the hashing embedder,
 * which compares wording, lets them pass even at the same threshold. Outputs on different subjects pass.
 */
import type { PolicySettings, StepEvent } from '@wayfinder/contracts';
import { DetectionEngine, PROFILES, repetitionThreshold } from '@wayfinder/detection';
import { EmbeddingCache, HashingEmbedder } from '@wayfinder/embeddings';
import { loadRequiredModel } from './model-files.testing';
import type { OnnxEmbedder } from './onnx-embedder';

const REWORDED = [
  'I could not find the annual revenue figure for the company.',
  'The yearly revenue of the company is not available in what I found.',
  'I was unable to locate the company\'s annual revenue.',
  'No source I found gives the revenue of the company for the year.',
  'The company\'s revenue for the year could not be found.',
];
const DISTINCT = [
  'The revenue of the company was 12 million dollars in 2023.',
  'Next I will read the installation guide of the package.',
  'The weather in Oslo is expected to be cold tomorrow.',
  'I fixed the failing unit test by correcting the import path.',
  'The capital of Australia is Canberra, not Sydney.',
];

function outputs(texts: string[], agentId: string): StepEvent[] {
  return texts.map((text, seq) => ({ schema: 'wayfinder.step.v1', eventId: `${agentId}-${seq}`, tenantId: 't1', agentId, taskId: 'task', runId: 'r1', seq, ts: '2026-01-01T00:00:00.000Z', kind: 'message', message: { role: 'assistant', text } }));
}

describe('semantic_repetition with minilm on reworded outputs', () => {
  let minilm: OnnxEmbedder;
  beforeAll(async () => {
    minilm = await loadRequiredModel('minilm');
  });
  afterAll(() => minilm.release());

  async function repetitions(policy: PolicySettings, steps: StepEvent[]) {
    const vectors = new EmbeddingCache({ hashing: new HashingEmbedder(), semantic: [minilm] });
    const engine = new DetectionEngine({ vectors, policyFor: () => ({ policy }) });
    await vectors.prefetch(steps.flatMap((s) => engine.textsFor(s)));
    const found = steps.flatMap((s) => engine.onStep(s)).filter((d) => d.detector === 'semantic_repetition');
    expect(vectors.stats.misses).toBe(0);
    return found;
  }

  const minilmPolicy: PolicySettings = {
    ...PROFILES.balanced,
    embedders: { ...PROFILES.balanced.embedders, semanticRepetition: 'minilm', minilm: { ...PROFILES.balanced.embedders.minilm, repetitionThreshold: 0.6 } },
  };
  const hashingPolicy: PolicySettings = { ...PROFILES.balanced, repetition: { ...PROFILES.balanced.repetition, threshold: 0.6 } };

  it('flags the fifth rewording with minilm and its own threshold; hashing does not', async () => {
    const found = await repetitions(minilmPolicy, outputs(REWORDED, 'a1'));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ level: 'warning', count: 5, atSeq: 4, loopStartSeq: 0 });
    expect(found[0].evidence).toMatchObject({ embedder: 'minilm', threshold: repetitionThreshold(minilmPolicy, 'minilm') });
    expect(repetitionThreshold(minilmPolicy, 'minilm')).toBe(0.6);
    expect(await repetitions(hashingPolicy, outputs(REWORDED, 'a2'))).toEqual([]);
  });

  it('lets outputs on different subjects pass', async () => {
    expect(await repetitions(minilmPolicy, outputs(DISTINCT, 'a3'))).toEqual([]);
  });
});
