/**
 * The claim checker, and verification_failed_repeat that reads its verdicts, are total (fast-check):
 * malformed steps and any text never make them throw. (Steps are parsed at the services' edge; the other
 * goal checks assume that, these two do not.)
 */
import fc from 'fast-check';
import type { StepEvent } from '@wayfinder/contracts';
import { DetectionEngine } from '../detection.engine';
import { resolvePolicy } from '../policy/resolve';
import { readClaim } from './claim-phrases';
import { agentSteps, mapOf } from './goal-checks.testing';
import { UnverifiedClaimDetector } from './unverified-claim.detector';
import { VerificationRepeatDetector } from './verification-repeat.detector';

const map = mapOf('Export the orders and write the report', {
  milestones: [{ id: 'export', description: 'Export the orders', dependsOn: [], validator: { type: 'any', of: [{ type: 'jsonField', path: 'rows', exists: true }, { type: 'regex', pattern: 'exported', on: 'observation' }] } }],
});

const body = fc.oneof(
  fc.anything(),
  fc.record({ tool: fc.oneof(fc.string(), fc.anything()), args: fc.anything(), ok: fc.anything(), content: fc.anything(), error: fc.anything() }),
  fc.record({ role: fc.constantFrom('assistant', 'user'), text: fc.oneof(fc.fullUnicodeString(), fc.anything()), type: fc.anything() }),
  fc.record({ id: fc.oneof(fc.constant('export'), fc.anything()), status: fc.constantFrom('started', 'done', 'failed', 'x'), evidence: fc.anything() }),
);

describe('unverified_claim on hostile input', () => {
  it('never throws through the engine, whatever the step bodies', () => {
    const policy = resolvePolicy({});
    const claims = new UnverifiedClaimDetector();
    const engine = new DetectionEngine({ policyFor: () => ({ policy, map }), extraDetectors: [claims, new VerificationRepeatDetector(claims)] });
    const s = agentSteps();
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('action', 'observation', 'message', 'milestone'), body), { maxLength: 20 }), (steps) => {
        for (const [kind, b] of steps) {
          const step = { ...s.say(''), kind, message: undefined, [kind]: b } as unknown as StepEvent;
          expect(Array.isArray(engine.onStep(step))).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('reads a claim in any text without throwing, and in a long text only at its edges', () => {
    fc.assert(fc.property(fc.fullUnicodeString({ maxLength: 3000 }), (text) => void readClaim(text)));
    const middle = `${'x '.repeat(3000)}I am blocked. ${'y '.repeat(3000)}`;
    expect(readClaim(middle)).toBeUndefined();
    expect(readClaim(`${'x '.repeat(3000)}I am blocked.`)).toEqual({ kind: 'blocked', phrase: 'I am blocked' });
  });
});
