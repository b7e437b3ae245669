// Property: whatever the agent does, the engine never corrects forever — per milestone at most 4 corrections
// and 2 rollbacks before a freeze, nothing after a freeze, and warnings never skip a rung.
import fc from 'fast-check';
import type { Correction, DetectorName } from '@wayfinder/contracts';
import { CorrectionEngine } from './correction-engine';
import { actionStep, context, deviation, FIXED_NOW, position } from './ladder-scenario.testing';

const SOFT_DETECTORS: DetectorName[] = ['generic_repeat', 'error_repeat', 'ping_pong', 'stagnation', 'monologue', 'near_duplicate_calls'];
const RANK = { mild: 0, moderate: 1, severe: 2, critical: 3 } as const;

type Event =
  | { type: 'step'; progress: boolean; nextMilestone: boolean }
  | { type: 'deviation'; detector: DetectorName; tool: string; critical: boolean };

const event: fc.Arbitrary<Event> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ type: fc.constant('step' as const), progress: fc.boolean(), nextMilestone: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('deviation' as const),
      detector: fc.constantFrom(...SOFT_DETECTORS),
      tool: fc.constantFrom('search', 'fetch', 'browse'),
      critical: fc.boolean(),
    }),
  },
);

describe('the engine never corrects forever', () => {
  it('respects the per-milestone limits and the finality of a freeze', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 200 }), (events) => {
        const engine = new CorrectionEngine({ now: () => FIXED_NOW });
        const ctx = context();
        let seq = 0;
        let milestone = 2;
        let progress = 0;
        const byMilestone = new Map<string, Correction[]>();
        let frozen = false;
        for (const e of events) {
          seq += 1;
          if (e.type === 'step') {
            if (e.nextMilestone && milestone < 4) milestone += 1;
            else if (e.progress) progress += 0.001;
            const done = Array.from({ length: milestone - 1 }, (_, i) => `m${i + 1}`);
            engine.onStep(actionStep(seq), position(`m${milestone}`, done, progress), ctx);
            continue;
          }
          const d = engine.onDeviation(
            deviation(e.detector, seq, { level: e.critical ? 'critical' : 'warning', evidence: { tool: e.tool } }),
            ctx,
          );
          if (frozen) expect(d.corrections).toEqual([]);
          for (const c of d.corrections) {
            const list = byMilestone.get(`m${milestone}`) ?? [];
            list.push(c);
            byMilestone.set(`m${milestone}`, list);
            if (c.action === 'freeze') {
              frozen = true;
              expect(d.escalations).toHaveLength(1);
            }
          }
        }
        for (const list of byMilestone.values()) {
          const beforeFreeze = list.filter((c) => c.action !== 'freeze');
          expect(beforeFreeze.length).toBeLessThanOrEqual(4);
          expect(list.filter((c) => c.action === 'rollback').length).toBeLessThanOrEqual(2);
        }
        const stats = engine.stats();
        expect(stats.escalations).toBe(frozen ? 1 : 0);
      }),
      { numRuns: 300 },
    );
  });

  it('a persisting warning-only loop climbs exactly one rung at a time', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 30 }), (gaps) => {
        const engine = new CorrectionEngine({ now: () => FIXED_NOW });
        const ctx = context();
        const severities: number[] = [];
        let seq = 10;
        for (const gap of gaps) {
          seq += gap;
          engine.onStep(actionStep(seq), position('m2', ['m1'], 0.25), ctx);
          for (const c of engine.onDeviation(deviation('generic_repeat', seq), ctx).corrections) severities.push(RANK[c.severity]);
        }
        severities.forEach((s, i) => expect(s).toBe(i));
      }),
      { numRuns: 300 },
    );
  });
});
