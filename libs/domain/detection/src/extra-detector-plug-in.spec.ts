/**
 * Plug-in detectors (drift) run after the built-in ones and get the engine's identity stamping. One that
 * throws is not silenced: the step fails with the reason (the worker retries, then dead-letters it).
 */
import type { StepEvent } from '@wayfinder/contracts';
import { DetectionEngine } from './detection.engine';
import { resolvePolicy } from './policy/resolve';
import { runAll, steps } from './test-support/step-builder';
import type { StepDetector } from './types';

describe('extra detectors', () => {
  it('stamps their drafts, and a failing one fails the step with its reason instead of being swallowed', () => {
    const flagsSearch: StepDetector = {
      name: 'drift',
      onStep: (step: StepEvent) =>
        step.kind === 'action' && step.action.tool === 'web_search'
          ? [{ detector: 'drift', level: 'warning', count: 1, atSeq: step.seq, loopStartSeq: step.seq, evidence: { curve: 'goal' }, message: 'off the goal' }]
          : [],
    };
    const broken: StepDetector = { name: 'drift', onStep: () => { throw new Error('boom'); } };
    const policy = resolvePolicy({ profile: 'openclaw' });
    const engine = new DetectionEngine({ policyFor: () => ({ policy }), extraDetectors: [flagsSearch] });
    const s = steps();
    const out = runAll(engine, [s.act('read', { path: '/a' }), s.act('web_search', { query: 'cats' })]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ detector: 'drift', atSeq: 1, eventId: 'r1-e1:drift:warning', tenantId: 't1', agentId: 'a1', taskId: 'task1', runId: 'r1' });

    const failing = new DetectionEngine({ policyFor: () => ({ policy }), extraDetectors: [broken, flagsSearch] });
    const t = steps();
    expect(() => failing.onStep(t.act('read', { path: '/a' }))).toThrow(/detector drift failed on "r1-e0": boom/);
  });
});
