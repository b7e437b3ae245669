/** The drift detector plugs into the detection engine as an extra detector and its deviations come out stamped. */
import { HashingEmbedder } from '@wayfinder/embeddings';
import { DetectionEngine } from '../detection.engine';
import type { StepDetector } from '../types';
import { DriftDetector } from './drift.detector';
import { policy, stepper } from './testing/drift-steps';

describe('DriftDetector inside DetectionEngine', () => {
  it('is a StepDetector whose deviations the engine stamps with the step identity', () => {
    const drift: StepDetector = new DriftDetector(new HashingEmbedder());
    const engine = new DetectionEngine({ policyFor: () => ({ policy }), extraDetectors: [drift] });
    const s = stepper();
    const steps = [
      s.say('### Facts\n• Which album by Fiona Apple got no letter grade from Robert Christgau?'),
      s.say("1. Search the web for Fiona Apple's albums.\n2. Look up Christgau's grades.\n3. Answer."),
      s.act('final_answer', { answer: 'Harbinger' }),
    ];
    const out = steps.flatMap((step) => engine.onStep(step)).filter((d) => d.detector === 'drift');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ schema: 'wayfinder.deviation.v1', tenantId: 't1', agentId: 'a1', runId: 'r1', atSeq: 2, evidence: { curve: 'plan' } });
  });
});
