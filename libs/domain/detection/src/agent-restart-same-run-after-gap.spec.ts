/**
 * An agent that restarts at seq 0 without a new runId is a new run once the policy's gap has passed (by
 * step time); before it, or for a step older than the last, seq 0 is a redelivery. Every step not applied
 * again is reported (onDuplicate), never dropped silently.
 */
import type { StepEvent } from '@wayfinder/contracts';
import { DetectionEngine } from './detection.engine';
import { resolvePolicy } from './policy/resolve';

function read(seq: number, atMs: number, eventId = `e-${seq}-${atMs}`): StepEvent {
  return { schema: 'wayfinder.step.v1', eventId, tenantId: 't1', agentId: 'a1', taskId: 'job', runId: 'r1', seq, ts: new Date(atMs).toISOString(), kind: 'action', action: { tool: 'read', args: { path: '/same' } } };
}

describe('an agent restarting under the same runId', () => {
  const policy = resolvePolicy({ profile: 'openclaw', loop: { runRestartGapMs: 30_000 } });

  it('is a new run after the gap and a redelivery before it, with every skipped step reported', () => {
    const duplicates: Array<[number, string]> = [];
    const engine = new DetectionEngine({ policyFor: () => ({ policy }), onDuplicate: (step, reason) => void duplicates.push([step.seq, reason]) });
    const t0 = Date.UTC(2026, 0, 1);
    for (let seq = 0; seq < 5; seq++) engine.onStep(read(seq, t0 + seq * 1_000));
    engine.onStep(read(4, t0 + 4_000)); // the same event again
    engine.onStep(read(0, t0 + 10_000)); // seq 0, 6 s later: too soon to be a restart
    expect(duplicates).toEqual([[4, 'seen_event'], [0, 'stale_seq']]);

    // Restarted 60 s later: its steps are applied again from seq 0, and its loop counts from there.
    const restarted = Array.from({ length: 12 }, (_, seq) => read(seq, t0 + 70_000 + seq * 1_000));
    const deviations = restarted.flatMap((s) => engine.onStep(s));
    expect(duplicates).toHaveLength(2);
    const repeat = deviations.find((d) => d.detector === 'generic_repeat');
    expect(repeat?.loopStartSeq).toBe(0);
  });
});
