/**
 * Deviations can reach the engine before the agent's first localized step (the topics are consumed side
 * by side). Corrections made then still count against the milestone the agent turns out to be on, so
 * the limit of 4 per milestone holds (a property test found a fifth).
 */
import type { Correction } from '@wayfinder/contracts';
import { CorrectionEngine } from './correction-engine';
import { actionStep, context, deviation, FIXED_NOW, position } from './ladder-scenario.testing';

describe('corrections before the first step', () => {
  it('count against the milestone the agent is then seen on', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context();
    const corrections: Correction[] = [];
    const deviate = (seq: number, tool: string, critical: boolean) =>
      corrections.push(...engine.onDeviation(deviation('generic_repeat', seq, { level: critical ? 'critical' : 'warning', evidence: { tool } }), ctx).corrections);
    deviate(1, 'search', false);
    deviate(2, 'search', true);
    engine.onStep(actionStep(3), position('m2', ['m1'], 0), ctx);
    deviate(4, 'search', false);
    deviate(5, 'search', true);
    engine.onStep(actionStep(6), position('m2', ['m1'], 0.001), ctx);
    deviate(7, 'fetch', false);
    const beforeFreeze = corrections.filter((c) => c.action !== 'freeze');
    expect(beforeFreeze.length).toBeLessThanOrEqual(4);
    expect(corrections.at(-1)?.action).toBe('freeze');
  });
});
