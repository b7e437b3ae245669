/**
 * P1, "Identical calls in one batch" (PROJECT-RULES.md): one model turn asking for the same tool call three
 * times (OpenCode's doom-loop check counts the third identical call in one message) is a hint-level
 * `near_duplicate_calls` warning at the third call, before any of the calls came back (evidence `pending`).
 * Twins: a batch over distinct files, two identical calls, the `openclaw` profile.
 */
import type { Deviation, JsonValue, StepEvent } from '@wayfinder/contracts';
import { engineFor, runAll } from './test-support/step-builder';

/** One turn: the actions of `calls` (all issued first), then their observations in order. */
function batch(calls: Array<{ tool: string; args: Record<string, JsonValue>; result: string }>, firstSeq = 0): StepEvent[] {
  const base = (seq: number) => ({ schema: 'wayfinder.step.v1' as const, eventId: `e${seq}`, tenantId: 't1', agentId: 'a1', taskId: 'task1', runId: 'r1', seq, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString() });
  const actions = calls.map((c, i): StepEvent => ({ ...base(firstSeq + i), kind: 'action', action: { tool: c.tool, args: c.args, callId: `b${firstSeq + i}` } }));
  const observations = calls.map((c, i): StepEvent => ({ ...base(firstSeq + calls.length + i), kind: 'observation', observation: { tool: c.tool, ok: true, content: c.result, callId: `b${firstSeq + i}` } }));
  return [...actions, ...observations];
}

const loops = (out: Deviation[]) => out.filter((d) => d.detector !== 'stagnation');
const readme = { tool: 'read', args: { filePath: '/repo/README.md' }, result: '# demo\nA small demo project.' };

describe('identical calls in one batch', () => {
  it('warns at the third identical call of the batch, before any came back, evidence pending', () => {
    const out = loops(runAll(engineFor(), batch([readme, readme, readme])));
    expect(out).toEqual([
      expect.objectContaining({
        detector: 'near_duplicate_calls',
        level: 'warning',
        count: 2,
        atSeq: 2,
        loopStartSeq: 0,
        evidence: expect.objectContaining({ tool: 'read', identicalArgs: true, pending: 3, early: true }),
      }),
    ]);
    expect(out[0].message).toContain('3 times with identical arguments before any of the calls came back');
  });

  it('warns once for a batch of five (the args in another key order are the same call)', () => {
    const reordered = { tool: 'grep', args: { pattern: 'TODO', path: 'src' }, result: 'src/app.ts:3: // TODO tidy up' };
    const same = { ...reordered, args: { path: 'src', pattern: 'TODO' } };
    const out = loops(runAll(engineFor(), batch([reordered, same, reordered, same, reordered])));
    expect(out.map((d) => [d.detector, d.level, d.atSeq, d.evidence['pending']])).toEqual([['near_duplicate_calls', 'warning', 2, 3]]);
  });
});

describe('identical calls in one batch: legitimate twins', () => {
  it('a batch over distinct files is clean, whatever their content', () => {
    const files = ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts'].map((p) => ({ tool: 'read', args: { filePath: p }, result: "export * from './lib';" }));
    expect(loops(runAll(engineFor(), batch(files)))).toEqual([]);
  });

  it('two identical calls in a batch are below the threshold', () => {
    expect(loops(runAll(engineFor(), batch([readme, readme])))).toEqual([]);
  });

  it('the openclaw profile stays exactly OpenClaw\'s: no warning for the batch', () => {
    expect(loops(runAll(engineFor({ profile: 'openclaw' }), batch([readme, readme, readme])))).toEqual([]);
  });
});
