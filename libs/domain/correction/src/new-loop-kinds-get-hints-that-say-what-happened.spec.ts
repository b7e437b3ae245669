// Issue #32: the hints of the new loop kinds say what happened — the same call failing with changing errors,
// a poll whose fresh ids hide that it is the same call, a short phrase repeated, compactions with no call
// between. The detection engine runs on real steps; the hint is built from what it emitted.
import type { Deviation, StepEvent } from '@wayfinder/contracts';
import { DetectionEngine, resolvePolicy } from '@wayfinder/detection';
import { AGENT, RUN, TASK, TENANT, testMap } from './ladder-scenario.testing';
import { buildHintText } from './hint-text';

function stepsOf(bodies: Array<Pick<StepEvent, 'kind'> & Record<string, unknown>>): StepEvent[] {
  const base = { schema: 'wayfinder.step.v1' as const, tenantId: TENANT, agentId: AGENT, taskId: TASK, runId: RUN, ts: '2026-01-01T00:00:00.000Z' };
  return bodies.map((b, seq) => ({ ...base, eventId: `e${seq}`, seq, ...b }) as StepEvent);
}

function detect(steps: StepEvent[], detector: string): Deviation {
  const policy = resolvePolicy({});
  const engine = new DetectionEngine({ policyFor: () => ({ policy }) });
  const found = steps.flatMap((s) => engine.onStep(s)).filter((d) => d.detector === detector);
  expect(found.length).toBeGreaterThan(0);
  return found[0];
}

const hint = (deviation: Deviation) => buildHintText({ deviation, map: testMap(), milestoneId: 'm2' });

describe('hints for the loop kinds of issue #32', () => {
  it('the same call failing with errors that differ', () => {
    const errors = ['Command not found', 'Command still not found or another error', 'Different error'];
    const steps = stepsOf(errors.flatMap((error, i) => [
      { kind: 'action', action: { tool: 'execute_bash', args: { command: 'invalid_command' }, callId: `c${i}` } },
      { kind: 'observation', observation: { tool: 'execute_bash', ok: false, error, callId: `c${i}` } },
    ]));
    const text = hint(detect(steps, 'error_repeat'));
    expect(text).toContain('You ran `execute_bash` with the same arguments {"command":"invalid_command"} 3 times in a row and it failed every time');
    expect(text).toContain('Different error');
  });

  it('a poll with a fresh poll id each time', () => {
    const steps = stepsOf([0, 1, 2].flatMap((i) => [
      { kind: 'action', action: { tool: 'read_messages', args: { channel: 'ops', pollId: `poll-${i}` }, callId: `c${i}` } },
      { kind: 'observation', observation: { tool: 'read_messages', ok: true, content: 'No new messages.', callId: `c${i}` } },
    ]));
    expect(hint(detect(steps, 'near_duplicate_calls'))).toContain('You called `read_messages` 3 times in a row with identical arguments apart from fresh ids or time stamps');
  });

  it('a short phrase repeated, and compactions with no call between', () => {
    const phrase = stepsOf([{ kind: 'message', message: { role: 'assistant', text: `Checking. ${'Let me check. '.repeat(6)}` } }]);
    expect(hint(detect(phrase, 'content_repetition'))).toMatch(/Your last message repeats the phrase "Let me check\.?" 6 times in a row/);
    const compactions = stepsOf([0, 1, 2].map(() => ({ kind: 'compaction', compaction: { reason: 'context window full' } })));
    expect(hint(detect(compactions, 'compaction_loop'))).toContain('compacted 3 times in a row with no tool call in between');
  });
});
