/** DetectionEngine.onStep is total: no input, however malformed, makes it throw (fast-check). */
import fc from 'fast-check';
import type { StepEvent } from '@wayfinder/contracts';
import { DetectionEngine } from './detection.engine';
import { PROFILES } from './policy/profiles';

function deep(depth: number): unknown {
  let value: unknown = { leaf: 'x' };
  for (let i = 0; i < depth; i++) value = { next: value, list: [value] };
  return value;
}

const kinds = fc.constantFrom('action', 'observation', 'message', 'milestone', 'feedback', 'compaction', 'plan', 'bogus', 42);
const anyBody = fc.oneof(
  fc.anything(),
  fc.record({ tool: fc.oneof(fc.string(), fc.anything()), args: fc.anything(), callId: fc.anything() }),
  fc.record({ tool: fc.string(), ok: fc.anything(), content: fc.anything(), error: fc.anything(), errorCode: fc.anything() }),
  fc.record({ role: fc.constantFrom('assistant', 'user'), text: fc.oneof(fc.fullUnicodeString(), fc.anything()) }),
  fc.constant({ tool: 'read', args: deep(200) }),
  fc.constant({ tool: 'read', ok: true, content: deep(200) }),
  fc.constant({ role: 'assistant', text: '重复'.repeat(40_000) }),
);
const step = fc.record({
  schema: fc.constant('wayfinder.step.v1'),
  eventId: fc.oneof(fc.string(), fc.anything()),
  tenantId: fc.oneof(fc.constantFrom('t1', 't2'), fc.anything()),
  agentId: fc.oneof(fc.constantFrom('a1', 'a2'), fc.anything()),
  taskId: fc.anything(),
  runId: fc.oneof(fc.constant('r1'), fc.anything()),
  seq: fc.oneof(fc.nat(), fc.double(), fc.anything()),
  ts: fc.oneof(fc.constant('2026-01-01T00:00:00.000Z'), fc.anything()),
  kind: kinds,
  action: anyBody,
  observation: anyBody,
  message: anyBody,
  milestone: anyBody,
  usage: fc.anything(),
});

describe('DetectionEngine.onStep on hostile input', () => {
  it('never throws and always returns an array', () => {
    for (const policy of [PROFILES.balanced, PROFILES.strict, PROFILES.openclaw]) {
      const engine = new DetectionEngine({ policyFor: () => ({ policy, expectedStepMs: 1000, maxSteps: 5 }) });
      fc.assert(
        fc.property(fc.array(step, { maxLength: 30 }), (events) => {
          for (const e of events) expect(Array.isArray(engine.onStep(e as unknown as StepEvent))).toBe(true);
          expect(Array.isArray(engine.tick(Date.now()))).toBe(true);
        }),
        { numRuns: 150 },
      );
    }
  });

  it('survives a cyclic args object', () => {
    const args: Record<string, unknown> = { a: 1 };
    args.self = args;
    const engine = new DetectionEngine({ policyFor: () => ({ policy: PROFILES.balanced }) });
    const e = { schema: 'wayfinder.step.v1', eventId: 'e1', tenantId: 't', agentId: 'a', taskId: 'x', runId: 'r', seq: 1, ts: '2026-01-01T00:00:00Z', kind: 'action', action: { tool: 'read', args } };
    expect(() => engine.onStep(e as unknown as StepEvent)).not.toThrow();
    expect(engine.agentCount).toBe(1);
  });
});
