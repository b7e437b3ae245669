/**
 * Args nested 5,000 levels deep (a step that never met the contract's 64 levels: the engine used as a
 * library) overflowed the stack of the drift detector's recursive args walk, on its own and inside the
 * engine (issue #29): the step failed instead of being detected.
 */
import type { JsonValue } from '@wayfinder/contracts';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { DetectionEngine } from '../detection.engine';
import { DriftDetector } from './drift.detector';
import { policy, scooterMap, stepper } from './testing/drift-steps';

/** Parsed from its JSON text, as the worker reads a step (building it in JS and stringifying overflows first). */
function nested(depth: number): Record<string, JsonValue> {
  return JSON.parse(`${'{"query":"scooter battery","deeper":'.repeat(depth)}"rm -rf /tmp/x"${'}'.repeat(depth)}`) as Record<string, JsonValue>;
}

describe('drift on args nested 5,000 deep', () => {
  it('scores the step on its own, reading the args no deeper than the contract allows', () => {
    const drift = new DriftDetector(new HashingEmbedder());
    const s = stepper();
    drift.onStep(s.say('Write a market report comparing electric scooter brands on price, battery range and weight'), undefined, { policy, map: scooterMap });
    expect(() => drift.onStep(s.act('web_search', nested(5_000)), undefined, { policy, map: scooterMap })).not.toThrow();
  });

  it('is detected inside the engine like any step, and the next steps of the agent still are', () => {
    const engine = new DetectionEngine({ policyFor: () => ({ policy, map: scooterMap }), extraDetectors: [new DriftDetector(new HashingEmbedder())] });
    const s = stepper();
    engine.onStep(s.say('Write a market report comparing electric scooter brands on price, battery range and weight'));
    expect(() => engine.onStep(s.act('web_search', nested(5_000)))).not.toThrow();
    // The same hostile call again and again is still a loop: the bounds cut what is read, not what is seen.
    const raised = [engine.onStep(s.see('web_search', 'no results'))];
    for (let i = 0; i < 4; i++) raised.push(engine.onStep(s.act('web_search', nested(5_000))), engine.onStep(s.see('web_search', 'no results')));
    expect(raised.flat().map((d) => d.detector)).toContain('near_duplicate_calls');
  });
});
