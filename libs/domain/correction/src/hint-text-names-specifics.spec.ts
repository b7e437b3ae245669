// Hints are specific: they name the tool, the repeated arguments or error, the milestone, the constraint and
// the next action, from the evidence the detectors emit (the detection engine runs on events here).
import type { Deviation, DetectorName, JsonValue, PolicyOverlay, StepEvent } from '@wayfinder/contracts';
import { DetectionEngine, resolvePolicy } from '@wayfinder/detection';
import { buildHintText } from './hint-text';
import { testMap } from './ladder-scenario.testing';

function stepsOf() {
  let seq = 0;
  let call = 0;
  const base = () => ({ schema: 'wayfinder.step.v1' as const, eventId: `e${seq}`, tenantId: 'acme', agentId: 'agent-7', taskId: 'task-1', runId: 'run-1', seq: seq++, ts: '2026-01-01T00:00:00.000Z' });
  return {
    act: (tool: string, args: Record<string, JsonValue>): StepEvent => ({ ...base(), kind: 'action', action: { tool, args, callId: `c${++call}` } }),
    ok: (tool: string, content: JsonValue): StepEvent => ({ ...base(), kind: 'observation', observation: { tool, ok: true, content, callId: `c${call}` } }),
    fail: (tool: string, error: string): StepEvent => ({ ...base(), kind: 'observation', observation: { tool, ok: false, error, callId: `c${call}` } }),
    say: (text: string): StepEvent => ({ ...base(), kind: 'message', message: { role: 'assistant', text } }),
  };
}

/** The first deviation of a detector that the engine emits on the events. */
function detected(detector: DetectorName, events: StepEvent[], overlay: PolicyOverlay = {}): Deviation {
  const policy = resolvePolicy(overlay);
  const engine = new DetectionEngine({ policyFor: () => ({ policy }) });
  const found = events.flatMap((e) => engine.onStep(e)).find((d) => d.detector === detector);
  if (!found) throw new Error(`the engine emitted no ${detector}`);
  return found;
}

describe('hint texts from detector evidence', () => {
  it('a reworded search names the tool, the changed field, both queries, the milestone, the constraint and the next action', () => {
    const s = stepsOf();
    const page = '1. ACME Corp annual report 2023\n2. ACME revenue overview\n3. ACME quarterly results archive';
    const queries = ['acme pricing tiers', 'acme pricing tiers 2025', 'acme pricing tiers 2025 list', 'acme pricing tiers 2025 plans'];
    const deviation = detected('near_duplicate_calls', queries.flatMap((query) => [s.act('web_search', { query }), s.ok('web_search', page)]));
    const text = buildHintText({ deviation, map: testMap(), milestoneId: 'm2' });
    expect(text).toContain('`web_search` 4 times in a row with changing only query');
    expect(text).toContain('latest {"query":"acme pricing tiers 2025 plans"}, before {"query":"acme pricing tiers 2025 list"}');
    expect(text).toContain('milestone m2 ("Collect pricing for 5 competitors")');
    expect(text).toContain('1. Only use public sources');
    expect(text).toMatch(/Next action: stop rephrasing `web_search`/);
  });

  it('a repeated error names the error and the arguments, and asks to fix its cause', () => {
    const s = stepsOf();
    const events = [];
    for (let i = 0; i < 4; i++) events.push(s.act('read_file', { path: '/data/q3.csv' }), s.fail('read_file', 'ENOENT: no such file /data/q3.csv'));
    const deviation = detected('error_repeat', events, { nearDuplicate: { enabled: false } });
    const text = buildHintText({ deviation, map: testMap(), milestoneId: 'm1' });
    expect(text).toContain('`read_file` failed 3 times with the same error: ENOENT: no such file /data/q3.csv (last arguments {"path":"/data/q3.csv"})');
    expect(text).toContain('Next action: do not retry `read_file` unchanged; fix the cause of "ENOENT: no such file /data/q3.csv"');
  });

  it('searches that keep finding nothing say so, with the last arguments (P7 evidence)', () => {
    const s = stepsOf();
    const events = ['L031 rule file', 'rule L031 path', 'L031.py location', 'class Rule_L031'].flatMap((query) => [s.act('search_code', { query }), s.ok('search_code', `Found 0 code sections mentioning ${query}`)]);
    const text = buildHintText({ deviation: detected('error_repeat', events), map: testMap(), milestoneId: 'm1' });
    expect(text).toContain('`search_code` came back with nothing found or an error 4 times in a row, with changing arguments (last arguments {"query":"class Rule_L031"})');
  });

  it('failures with changing commands name the latest error; secrets in the arguments never reach the hint', () => {
    const s = stepsOf();
    const events = [];
    for (const cmd of ['pytest', 'python -m pytest', 'pytest -x', 'pytest -q --token=tok_9f8e7d6c5b4a']) events.push(s.act('bash', { cmd }), s.fail('bash', `${cmd}: ModuleNotFoundError: No module named 'fastapi'`));
    events.push(s.act('bash', { cmd: 'pytest -q --token=tok_9f8e7d6c5b4a' }));
    const text = buildHintText({ deviation: detected('error_repeat', events), map: testMap(), milestoneId: 'm1' });
    expect(text).toContain('`bash` failed 4 times in a row, with changing arguments or errors');
    expect(text).toContain("ModuleNotFoundError: No module named 'fastapi'");
    expect(text).not.toContain('tok_9f8e7d6c5b4a');
    expect(text).toContain('[redacted]');
  });

  it('a ping-pong names both calls', () => {
    const s = stepsOf();
    const events = [];
    for (let i = 0; i < 6; i++) events.push(s.act('open_tab', { url: 'https://a.example.com' }), s.ok('open_tab', 'opened'), s.act('close_tab', { id: 1 }), s.ok('close_tab', 'closed'));
    const deviation = detected('ping_pong', events, { profile: 'openclaw', loop: { warning: 5, critical: 10 } });
    const text = buildHintText({ deviation, map: testMap(), milestoneId: 'm3', relapse: true, failureReason: 'hint at seq 4 did not hold' });
    expect(text).toMatch(/alternating between `(open_tab|close_tab)` \{.*\} and `(open_tab|close_tab)` \{.*\}/);
    expect(text).toContain('The same problem is back');
    expect(text).toContain('Previous attempt failed: hint at seq 4 did not hold');
  });

  it('a message repeating itself quotes the passage; the hint stays within the contract limit', () => {
    const s = stepsOf();
    const chunk = `I will now verify the totals in the quarterly report once more ${'and again '.repeat(400)}.`;
    const deviation = detected('content_repetition', [s.act('read_file', { path: 'r.md' }), s.ok('read_file', 'x'), s.say(`${chunk} ${chunk} ${chunk}`)]);
    const text = buildHintText({ deviation, milestoneId: null });
    expect(text).toContain('repeats the same passage 3 times: "I will now verify the totals');
    expect(text.length).toBeLessThanOrEqual(8192);
    // No task and no map: no milestone to be on, the next action points at the task.
    expect(text).not.toContain('You are on');
    expect(text).toContain('to work on your task');
  });
});
