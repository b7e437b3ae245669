// Issue #32: the hint for a claim nobody could verify says which claim and what the tools did not show
// (the validator's missing evidence, or the failed call a "blocked" needs). The detection engine, with the
// goal checks, runs on real step sequences; the hint is built from its evidence.
import type { CognitiveMap, Deviation, JsonValue, StepEvent } from '@wayfinder/contracts';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { DetectionEngine, goalCheckDetectors, resolvePolicy } from '@wayfinder/detection';
import { buildHintText } from './hint-text';
import { testMap } from './ladder-scenario.testing';

/** testMap with m2's validator asking for a pricing table in a tool result. */
function mapWithValidator(): CognitiveMap {
  const map = testMap();
  return { ...map, milestones: map.milestones.map((m) => (m.id === 'm2' ? { ...m, validator: { type: 'regex' as const, pattern: 'price \\$\\d+', on: 'observation' as const } } : m)) };
}

function stepsOf() {
  let seq = 0;
  const base = () => ({ schema: 'wayfinder.step.v1' as const, eventId: `e${seq}`, tenantId: 'acme', agentId: 'agent-7', taskId: 'task-1', runId: 'run-1', seq: seq++, ts: '2026-01-01T00:00:00.000Z' });
  return {
    act: (tool: string, args: Record<string, JsonValue>): StepEvent => ({ ...base(), kind: 'action', action: { tool, args } }),
    result: (tool: string, ok: boolean, text: string): StepEvent => ({ ...base(), kind: 'observation', observation: { tool, ok, ...(ok ? { content: text } : { error: text }) } }),
    say: (text: string): StepEvent => ({ ...base(), kind: 'message', message: { role: 'assistant', text } }),
    done: (id: string): StepEvent => ({ ...base(), kind: 'milestone', milestone: { id, status: 'done' } }),
  };
}

function claims(map: CognitiveMap, events: StepEvent[]): Deviation[] {
  const policy = resolvePolicy({});
  const embedder = new HashingEmbedder();
  const engine = new DetectionEngine({ embedder, policyFor: () => ({ policy, map }), extraDetectors: goalCheckDetectors(embedder) });
  return events.flatMap((e) => engine.onStep(e)).filter((d) => d.detector === 'unverified_claim');
}

describe('unverified_claim hint: names the claim and the missing evidence', () => {
  it('for a milestone claimed done: the validator evidence that never came', () => {
    const map = mapWithValidator();
    const s = stepsOf();
    const [deviation] = claims(map, [s.act('web_search', { query: 'acme competitors pricing' }), s.result('web_search', true, 'Acme, Beta, Gamma'), s.done('m2')]);
    const text = buildHintText({ deviation, map, milestoneId: 'm2' });
    expect(text).toContain('You said milestone m2 is done, but its check found no evidence: missing a tool result matching /price \\$\\d+/.');
    expect(text).toContain('Next action: produce a tool result matching /price \\$\\d+/ with the tools');
  });

  it('for a blocked claim: the failed call that would back it, and why it is missing', () => {
    const map = testMap();
    const s = stepsOf();
    const [deviation] = claims(map, [
      s.act('fetch_page', { url: 'https://acme.example/pricing' }),
      s.result('fetch_page', false, '429 Too Many Requests'),
      s.act('fetch_page', { url: 'https://acme.example/pricing' }),
      s.result('fetch_page', true, 'Acme: price $10'),
      s.say('I cannot proceed: the pricing pages are private.'),
    ]);
    const text = buildHintText({ deviation, map, milestoneId: 'm2' });
    expect(text).toContain('You said you are blocked, but the tools do not show it: missing 1 failed call at the impasse (the last call succeeded).');
    expect(text).toContain('Next action: try milestone m2 ("Collect pricing for 5 competitors") another way with the tools');
    expect(text).toContain('report blocked only with the failed calls and their errors');
  });

  it('nothing to hint about when the claim is backed (the twin: the evidence is there)', () => {
    const map = mapWithValidator();
    const s = stepsOf();
    expect(claims(map, [s.act('fetch_page', { url: 'https://acme.example/pricing' }), s.result('fetch_page', true, 'Pro plan: price $49 / month'), s.done('m2')])).toEqual([]);
  });
});
