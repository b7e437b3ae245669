// Issue #32: an OpenHands SDK agent's monologue (MessageEvents from the agent with no ActionEvent between)
// seen through the LLM proxy: each message-only answer is an assistant message step, a request re-sending
// the history adds no step twice, and the detection engine sees the monologue at the third message. A user
// message (the SDK's MessageEvent from the user) is an instruction, not a step: the answer after it carries
// `afterUser`, so a chat of answers and replies is no monologue, and the SDK's monologue counts from the
// first answer (outputs are not planning, P6).
import type { StepEvent } from '@wayfinder/contracts';
import { DetectionEngine, resolvePolicy } from '@wayfinder/detection';
import { answerSteps, requestSteps, type ChatIdentity } from './chat-steps';
import type { ChatMessage } from './chat-request';

const identity: ChatIdentity = { tenantId: 't1', agentId: 'openhands-1', taskId: 'task', runId: 'conv-1' };
const ts = '2026-01-01T00:00:00.000Z';

/**
 * The steps the proxy publishes over a conversation whose every answer is text only, deduplicated by
 * eventId as downstream does. `userBetween`: the user replies after each answer (a chat, not a monologue).
 */
function conversation(answers: string[], userBetween = false): StepEvent[] {
  const history: ChatMessage[] = [{ role: 'system', content: 'You are OpenHands.' }, { role: 'user', content: [{ type: 'text', text: 'Fix the failing test.' }] }];
  const seen = new Map<string, StepEvent>();
  for (const text of answers) {
    const { steps, answerSeq, answerAfterUser } = requestSteps(history, 0, identity, 0, ts);
    for (const s of [...steps, ...answerSteps({ text, toolCalls: [] }, identity, answerSeq, ts, undefined, answerAfterUser)]) {
      const known = seen.get(s.eventId);
      // The same message re-sent in the history is the same step, attributes included (downstream drops it).
      if (known) expect(known).toEqual(s);
      else seen.set(s.eventId, s as StepEvent);
    }
    history.push({ role: 'assistant', content: text });
    if (userBetween) history.push({ role: 'user', content: 'Go on.' });
  }
  return [...seen.values()];
}

const monologues = (steps: StepEvent[]) => {
  const policy = resolvePolicy({});
  const engine = new DetectionEngine({ policyFor: () => ({ policy }) });
  return steps.flatMap((s) => engine.onStep(s)).filter((d) => d.detector === 'monologue');
};

describe('an OpenHands SDK monologue through the proxy', () => {
  it('becomes assistant message steps, one per answer, and a monologue at the third', () => {
    const steps = conversation([0, 1, 2].map((i) => `I'm thinking about this... ${i}`));
    expect(steps.map((s) => [s.kind, s.seq])).toEqual([['message', 0], ['message', 1], ['message', 2]]);
    expect(steps.every((s) => s.kind === 'message' && s.message.role === 'assistant')).toBe(true);
    expect(monologues(steps).map((d) => [d.level, d.count, d.atSeq])).toEqual([['warning', 3, 2]]);
  });

  it('answers that differ, four in a row with no action from the first step, are a monologue (the SDK counts agent messages, whatever they say)', () => {
    const steps = conversation(['First I will read the test.', 'The assertion compares totals in cents.', 'So the fix belongs in the rounding helper.', 'I should look at how rounding is done.']);
    expect(steps.map((s) => s.attributes?.afterUser ?? false)).toEqual([true, false, false, false]);
    expect(monologues(steps).map((d) => [d.level, d.count, d.atSeq, d.evidence['kind']])).toEqual([['warning', 4, 3, 'no-action']]);
  });

  it('the twin: a chat where the user replies to each answer is no monologue, the answers being steps after a user message', () => {
    const steps = conversation(['First I will read the test.', 'The assertion compares totals in cents.', 'So the fix belongs in the rounding helper.', 'I should look at how rounding is done.', 'Rounding happens once, at the end.'], true);
    expect(steps.map((s) => [s.seq, s.attributes?.afterUser ?? false])).toEqual([0, 1, 2, 3, 4].map((seq) => [seq, true]));
    expect(monologues(steps)).toEqual([]);
  });

  it('stays quiet for answers that differ in their words', () => {
    const steps = conversation(['First I will read the test.', 'The assertion compares totals in cents.', 'So the fix belongs in the rounding helper.']);
    expect(steps).toHaveLength(3);
    expect(monologues(steps)).toEqual([]);
  });
});
