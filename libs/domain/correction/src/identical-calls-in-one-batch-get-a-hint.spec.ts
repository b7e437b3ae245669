// Issue #32: three identical calls issued in one turn (P1, "Identical calls in one batch") enter the ladder
// at its first rung, and the hint says what happened — the calls were issued together, before any came
// back — not that their results brought nothing new. The detection engine runs on real steps.
import type { StepEvent } from '@wayfinder/contracts';
import { AGENT, detectAndCorrect, RUN, TASK, TENANT, testMap } from './ladder-scenario.testing';
import { buildHintText } from './hint-text';

/** One turn issuing the same read three times (the observations have not come back yet). */
function batchOfReads(): StepEvent[] {
  const base = { schema: 'wayfinder.step.v1' as const, tenantId: TENANT, agentId: AGENT, taskId: TASK, runId: RUN, ts: '2026-01-01T00:00:00.000Z' };
  return [0, 1, 2].map((i): StepEvent => ({ ...base, eventId: `a${i}`, seq: i, kind: 'action', action: { tool: 'read_file', args: { path: 'src/cart.ts' }, callId: `c${i}` } }));
}

describe('identical calls in one batch on the ladder', () => {
  it('is a hint at the third call saying the calls went out together', () => {
    const { found, corrections: hints } = detectAndCorrect(batchOfReads());
    expect(found.map((d) => [d.detector, d.level, d.atSeq])).toEqual([['near_duplicate_calls', 'warning', 2]]);
    expect(hints).toEqual(['hint/mild']);
    const text = buildHintText({ deviation: found[0], map: testMap(), milestoneId: 'm2' });
    expect(text).toContain('You issued `read_file` 3 times with identical arguments {"path":"src/cart.ts"} in one go, before any of them came back.');
    expect(text).toContain('Next action: issue `read_file` with {"path":"src/cart.ts"} once and wait for its result');
    expect(text).not.toMatch(/bring nothing new|reworded/);
  });
});
