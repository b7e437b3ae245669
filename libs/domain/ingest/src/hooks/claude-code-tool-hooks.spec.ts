// Claude Code's PreToolUse / PostToolUse hook input becomes an action and its observation; the answers
// follow Claude Code's hook output (hookSpecificOutput.permissionDecision "deny" with the reason; no
// decision otherwise, guidance as additionalContext); a call that breaks a hard constraint of the map is
// a hard stop (hook seqs: InMemoryStepSeqs / RedisStepSeqs, with their own contract specs).
import { hardStopOf, hookStep, postToolAnswer, preToolAnswer, readToolHook } from './tool-hooks';

const pre = {
  session_id: 'sess-1',
  transcript_path: '/home/u/.claude/projects/p/sess-1.jsonl',
  cwd: '/work/repo',
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'cat data/sales.csv', description: 'Read the sales data' },
  tool_use_id: 'toolu_01',
};
const identity = { tenantId: 'acme', agentId: 'sess-1', taskId: 'sess-1', runId: 'sess-1' };

describe('Claude Code tool hooks', () => {
  it('reads the PreToolUse input into an action', () => {
    const read = readToolHook(pre, ['PreToolUse']);
    expect(read).toMatchObject({ ok: true, value: { sessionId: 'sess-1', event: 'PreToolUse', toolName: 'Bash', toolUseId: 'toolu_01', cwd: '/work/repo' } });
    if (!read.ok) return;
    expect(hookStep(read.value, identity, 1000, Date.UTC(2026, 0, 1))).toMatchObject({
      schema: 'wayfinder.step.v1',
      eventId: 'hook:sess-1:toolu_01:call',
      seq: 1000,
      ts: '2026-01-01T00:00:00.000Z',
      kind: 'action',
      action: { tool: 'Bash', args: pre.tool_input, callId: 'toolu_01' },
    });
  });

  it('reads PostToolUse and PostToolUseFailure into observations, failed when the response or the event says so', () => {
    const ok = readToolHook({ ...pre, hook_event_name: 'PostToolUse', tool_response: { stdout: 'a,b', stderr: '', interrupted: false } }, ['PostToolUse', 'PostToolUseFailure']);
    const denied = readToolHook({ ...pre, hook_event_name: 'PostToolUse', tool_response: { success: false, error: 'EACCES: permission denied' } }, ['PostToolUse', 'PostToolUseFailure']);
    const failure = readToolHook({ ...pre, hook_event_name: 'PostToolUseFailure', error: 'Command exited with code 1' }, ['PostToolUse', 'PostToolUseFailure']);
    const steps = [ok, denied, failure].map((r) => (r.ok ? hookStep(r.value, identity, 7, 0) : r));
    expect(steps[0]).toMatchObject({ eventId: 'hook:sess-1:toolu_01:obs', kind: 'observation', observation: { tool: 'Bash', ok: true, callId: 'toolu_01', content: { stdout: 'a,b' } } });
    expect(steps[1]).toMatchObject({ observation: { ok: false, error: 'EACCES: permission denied' } });
    expect(steps[2]).toMatchObject({ observation: { ok: false, error: 'Command exited with code 1' } });
  });

  it.each([
    ['no session_id', { ...pre, session_id: undefined }, 'session_id'],
    ['another event at this endpoint', { ...pre, hook_event_name: 'Stop' }, 'hook_event_name'],
    ['no tool_name', { ...pre, tool_name: '' }, 'tool_name'],
    ['tool_input that is no object', { ...pre, tool_input: 'ls' }, 'tool_input'],
    ['a tool_use_id that is no string', { ...pre, tool_use_id: 3 }, 'tool_use_id'],
  ])('refuses %s', (_what, body, field) => {
    expect(readToolHook(body, ['PreToolUse'])).toMatchObject({ ok: false, field });
  });

  it('answers in Claude Code’s hook output format', () => {
    expect(preToolAnswer({ deny: 'frozen' })).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'frozen' } });
    expect(preToolAnswer({ context: 'stop retrying' })).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'stop retrying' } });
    expect(preToolAnswer({})).toEqual({});
    expect(postToolAnswer('PostToolUse', { context: 'stop retrying' })).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'stop retrying' } });
    expect(postToolAnswer('PostToolUse', { block: 'frozen' })).toEqual({ decision: 'block', reason: 'frozen' });
  });

  it('finds a hard stop in the map’s hard constraints before the call runs', () => {
    const map = { constraints: [{ id: 'c1', text: 'Never call a delete API.', hard: true, source: 'goal' as const }] };
    expect(hardStopOf(map as never, 'delete_file', { path: 'data/sales.csv' })).toMatch(/hard constraint 1 \("Never call a delete API\."\): "delete_file" is a delete tool/);
    expect(hardStopOf(map as never, 'read_file', { path: 'data/sales.csv' })).toBeUndefined();
    expect(hardStopOf(undefined, 'delete_file', {})).toBeUndefined();
  });

});
