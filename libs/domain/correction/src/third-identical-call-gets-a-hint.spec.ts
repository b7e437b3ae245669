// Issue #32: the third identical call (P1's early stage) enters the ladder at its first rung — a hint, not a
// rollback — and the hint says the calls were identical. The detection engine runs on real steps; the
// correction engine decides on what it emitted.
import type { StepEvent } from '@wayfinder/contracts';
import { AGENT, detectAndCorrect, RUN, TASK, TENANT, testMap } from './ladder-scenario.testing';
import { buildHintText } from './hint-text';

const file = 'export const total = (items) => items.length;';

function reads(n: number): StepEvent[] {
  const out: StepEvent[] = [];
  for (let i = 0; i < n; i++) {
    const base = { schema: 'wayfinder.step.v1' as const, tenantId: TENANT, agentId: AGENT, taskId: TASK, runId: RUN, ts: '2026-01-01T00:00:00.000Z' };
    out.push({ ...base, eventId: `a${i}`, seq: 2 * i, kind: 'action', action: { tool: 'read_file', args: { path: 'src/cart.ts' }, callId: `c${i}` } });
    out.push({ ...base, eventId: `o${i}`, seq: 2 * i + 1, kind: 'observation', observation: { tool: 'read_file', ok: true, content: file, callId: `c${i}` } });
  }
  return out;
}

describe('the third identical call on the ladder', () => {
  it('is a hint at the third call, naming the identical calls', () => {
    const { found, corrections: hints } = detectAndCorrect(reads(3));
    expect(found.map((d) => [d.detector, d.level, d.atSeq])).toEqual([['near_duplicate_calls', 'warning', 4]]);
    expect(hints).toEqual(['hint/mild']);
    const text = buildHintText({ deviation: found[0], map: testMap(), milestoneId: 'm2' });
    expect(text).toContain('You called `read_file` 3 times in a row with identical arguments {"path":"src/cart.ts"}');
    expect(text).not.toMatch(/reworded|rephras/);
  });
});
