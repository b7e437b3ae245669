/** @jest-environment ./libs/platform/onnx-embedders/testing/onnx-jest-environment.js */
/**
 * The embedded services with MiniLM loaded (WAYFINDER_EMBEDDERS=minilm): a tenant whose policy chooses
 * minilm for semantic_repetition gets its reworded outputs flagged with minilm's threshold, through the
 * state-localizer and the detector worker on the in-process bus; a tenant on the default profile (hashing)
 * sending the same outputs is not flagged. Needs the model files (npm test fetches them first).
 */
import type { Deviation, StepEvent, TenantPolicy } from '@wayfinder/contracts';
import { InProcessBus } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { defaultModelsDir, findModelFiles } from '@wayfinder/onnx-embedders';
import { until } from '@wayfinder/testing';
import { startServices, type RunningServices } from './runtime';

const REWORDED = [
  'I could not find the annual revenue figure for the company.',
  'The yearly revenue of the company is not available in what I found.',
  'I was unable to locate the company\'s annual revenue.',
  'No source I found gives the revenue of the company for the year.',
  'The company\'s revenue for the year could not be found.',
];

function outputs(tenantId: string, texts = REWORDED): StepEvent[] {
  return texts.map((text, seq) => ({ schema: 'wayfinder.step.v1', eventId: `${tenantId}-${seq}`, tenantId, agentId: 'a1', taskId: 'task', runId: 'r1', seq, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), kind: 'message', message: { role: 'assistant', text } }));
}

describe('embedded pipeline with minilm chosen by a tenant policy', () => {
  let running: RunningServices;
  const deviations: Deviation[] = [];

  beforeAll(async () => {
    const dir = defaultModelsDir();
    if (!findModelFiles('minilm', dir)) throw new Error(`the 'minilm' model files are missing from ${dir}/minilm: run 'npm run models:fetch' (npm test runs it first)`);
    const bus = new InProcessBus();
    bus.subscribe('wayfinder.deviations.v1', async (batch) => void deviations.push(...batch.map((d) => d.payload)), { groupId: 'test' });
    running = await startServices(loadConfig({ WAYFINDER_EMBEDDERS: 'minilm' }), { bus, logger: false });
  });

  afterAll(async () => {
    await running?.stop();
  });

  it('flags the reworded outputs for the minilm tenant only', async () => {
    const policy: TenantPolicy = {
      schema: 'wayfinder.policy.v1', eventId: 'p1', tenantId: 'semantic', ts: '2026-01-01T00:00:00.000Z',
      policy: { embedders: { semanticRepetition: 'minilm', minilm: { repetitionThreshold: 0.6 } }, repetition: { threshold: 0.6 } },
    };
    await running.bus.publish('wayfinder.policies.v1', [policy]);
    await until(() => running.policyBook.policyOf('semantic', 'task', 'a1').embedders.semanticRepetition === 'minilm');
    // The default tenant then repeats one sentence word for word: hashing flags that chain, which shows
    // its reworded outputs before it were processed and let through.
    const identical = Array.from({ length: 5 }, () => 'The revenue figure is still missing.');
    await running.bus.publish('wayfinder.steps.v1', [...outputs('semantic'), ...outputs('default', [...REWORDED, ...identical])]);
    await until(() => deviations.some((d) => d.tenantId === 'semantic' && d.detector === 'semantic_repetition'));
    const found = deviations.find((d) => d.tenantId === 'semantic' && d.detector === 'semantic_repetition')!;
    expect(found).toMatchObject({ atSeq: 4, loopStartSeq: 0, count: 5, evidence: { embedder: 'minilm', threshold: 0.6 } });
    // The default tenant (hashing, threshold 0.92): only the word-for-word chain, from seq 5.
    await until(() => deviations.some((d) => d.tenantId === 'default' && d.detector === 'semantic_repetition'));
    const ours = deviations.filter((d) => d.tenantId === 'default' && d.detector === 'semantic_repetition');
    expect(ours.map((d) => [d.loopStartSeq, d.atSeq, d.evidence.embedder])).toEqual([[5, 9, 'hashing']]);
  });
});
