// What the agent page shows of a step comes from its summary: arguments, output, error and latency, each
// cut to DETAIL_CHARS with a marker; a deviation keeps its detector's evidence the same way.
import type { Deviation, LocalizedStep, StepEvent } from '@wayfinder/contracts';
import { DETAIL_CHARS } from './history-record';
import { deviationRecordOf, stepSummaryOf } from './records-from-events';

const POSITION = { milestoneId: 'm1', completed: [], progress: 0.5, confidence: 1, method: 'signal' as const };
const BASE = { schema: 'wayfinder.step.v1', eventId: 'e', tenantId: 't', agentId: 'a', taskId: 'k', ts: '2026-01-01T00:00:00.000Z', seq: 4 };

function summary(step: Record<string, unknown>) {
  return stepSummaryOf({ schema: 'wayfinder.localized.v1', eventId: 'l', tenantId: 't', ts: BASE.ts, step: { ...BASE, ...step } as StepEvent, position: POSITION } as LocalizedStep);
}

describe('step summaries keep what the agent page shows', () => {
  it('keeps an action\'s arguments and latency, an observation\'s output and error, a message\'s text', () => {
    expect(summary({ kind: 'action', action: { tool: 'read_file', args: { path: '/a' } }, usage: { latencyMs: 250, inputTokens: 3, outputTokens: 4 } })).toMatchObject({ detail: { input: '{"path":"/a"}', latencyMs: 250 }, tokens: 7 });
    expect(summary({ kind: 'observation', observation: { tool: 'read_file', ok: false, content: { rows: 2 }, error: 'EACCES' } }).detail).toEqual({ output: '{"rows":2}', error: 'EACCES' });
    expect(summary({ kind: 'message', message: { role: 'assistant', text: 'done' } }).detail).toEqual({ output: 'done' });
  });

  it('cuts a long output to DETAIL_CHARS and says how long it was', () => {
    const output = summary({ kind: 'observation', observation: { tool: 'fetch', ok: true, content: 'x'.repeat(5_000) } }).detail?.output ?? '';
    expect(output).toBe(`${'x'.repeat(DETAIL_CHARS)}… (5000 chars)`);
  });

  it('keeps a deviation\'s evidence as compact JSON', () => {
    const d = { schema: 'wayfinder.deviation.v1', eventId: 'd1', tenantId: 't', agentId: 'a', taskId: 'k', runId: null, ts: BASE.ts, detector: 'generic_repeat', level: 'warning', count: 3, atSeq: 4, loopStartSeq: 1, message: 'm', evidence: { tool: 'read_file', repeats: 3 } } as unknown as Deviation;
    expect(deviationRecordOf(d).evidence).toBe('{"tool":"read_file","repeats":3}');
  });
});
