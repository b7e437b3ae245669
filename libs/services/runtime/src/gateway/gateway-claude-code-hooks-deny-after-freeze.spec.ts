// Claude Code's HTTP hooks on the gateway (embedded, every service in process): a session that keeps
// running the same failing command gets the hint as additionalContext (once), and after the freeze its
// next PreToolUse is denied with the reason (its seqs small: 1, 2, 3… per session); restarted, it reads
// the standing freeze first from `now`, and its own ack does not lift it (a resume does); another tenant's key, same session id, is not denied and
// reads none of it. A call that breaks a hard constraint of the task's map is denied before it runs.
// Bad input is a 400 naming the field.
import type { RunningServices } from '../runtime';
import { call, startWithGateway } from './gateway.testing';

const A = 'acme-hooks-key';
const B = 'globex-hooks-key';

const hook = (event: 'PreToolUse' | 'PostToolUse', n: number, extra: Record<string, unknown> = {}) => ({
  session_id: 'sess-42',
  transcript_path: '/home/dev/.claude/projects/repo/sess-42.jsonl',
  cwd: '/work/repo',
  permission_mode: 'default',
  hook_event_name: event,
  tool_name: 'Bash',
  tool_input: { command: 'cat data/sales.csv', description: 'Read the sales data' },
  tool_use_id: `toolu_${n}`,
  ...(event === 'PostToolUse' && { tool_response: { success: false, error: 'cat: data/sales.csv: Permission denied' } }),
  ...extra,
});

describe('Claude Code hooks', () => {
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A},globex:${B}` });
    base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('hints the looping session once, then denies its tool calls after the freeze', async () => {
    // The session's task (by default the session id): without a map the localizer holds its steps a while.
    expect((await call(base, 'POST', '/v1/tasks', { key: A, body: { taskId: 'sess-42', goal: 'Read the sales data -> compute the totals -> write the report' } })).status).toBe(201);
    const contexts: string[] = [];
    let denied: { permissionDecision: string; permissionDecisionReason: string } | undefined;
    for (let n = 0; n < 300 && !denied; n++) {
      const before = await call(base, 'POST', '/v1/hooks/pre-tool-use', { key: A, body: hook('PreToolUse', n) });
      expect(before.status).toBe(200);
      const output = before.body.hookSpecificOutput;
      if (output?.permissionDecision === 'deny') {
        denied = output;
        break;
      }
      if (output?.additionalContext) contexts.push(output.additionalContext);
      const after = await call(base, 'POST', '/v1/hooks/post-tool-use', { key: A, body: hook('PostToolUse', n) });
      expect(after.status).toBe(200);
      if (after.body.hookSpecificOutput?.additionalContext) contexts.push(after.body.hookSpecificOutput.additionalContext);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(denied).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^Wayfinder froze agent sess-42: .+ A human must resume it/) });
    const corrections = (await call(base, 'GET', '/v1/agents/sess-42/corrections', { key: A })).body.corrections as Array<{ action: string; hint?: { text: string } }>;
    const hint = corrections.find((c) => c.action === 'hint')!;
    expect(contexts.filter((c) => c === `Wayfinder: ${hint.hint!.text}`)).toHaveLength(1);

    // Still frozen on the next call; the same session id under another tenant's key is another agent.
    expect((await call(base, 'POST', '/v1/hooks/pre-tool-use', { key: A, body: hook('PreToolUse', 999) })).body.hookSpecificOutput.permissionDecision).toBe('deny');
    const other = await call(base, 'POST', '/v1/hooks/pre-tool-use', { key: B, body: hook('PreToolUse', 0) });
    expect(other).toMatchObject({ status: 200, body: {} });
    expect((await call(base, 'GET', '/v1/agents/sess-42/corrections', { key: B })).body.corrections).toEqual([]);

    // Hook steps are numbered 1, 2, 3… per session: the reasons quote small seqs, not clock-sized ones.
    const quoted = [...`${denied!.permissionDecisionReason} ${hint.hint!.text}`.matchAll(/\bseq (\d+)/g)].map((m) => Number(m[1]));
    expect(quoted.length).toBeGreaterThan(0);
    expect(Math.max(...quoted)).toBeLessThan(2 * 300);

    // A restart of the frozen agent: from `now`, the standing freeze comes first (and only it).
    const freeze = (await call(base, 'GET', '/v1/agents/sess-42/corrections?after=now', { key: A })).body.corrections as Array<{ eventId: string; action: string }>;
    expect(freeze.map((c) => c.action)).toEqual(['freeze']);
    // The agent acknowledging its freeze does not lift it: only a human's resume does.
    const ack = await call(base, 'POST', `/v1/agents/sess-42/corrections/${freeze[0].eventId}/ack`, { key: A, body: {} });
    expect(ack).toMatchObject({ status: 202, body: { acked: true, frozen: true } });
    expect((await call(base, 'POST', '/v1/hooks/pre-tool-use', { key: A, body: hook('PreToolUse', 998) })).body.hookSpecificOutput.permissionDecision).toBe('deny');

    // Resumed by a human: the calls go through again, and `now` no longer starts with the freeze.
    expect((await call(base, 'POST', '/v1/agents/sess-42/resume', { key: A, body: {} })).status).toBe(202);
    expect((await call(base, 'POST', '/v1/hooks/pre-tool-use', { key: A, body: hook('PreToolUse', 1000) })).body.hookSpecificOutput?.permissionDecision).toBeUndefined();
    expect((await call(base, 'GET', '/v1/agents/sess-42/corrections?after=now', { key: A })).body.corrections).toEqual([]);
  }, 120_000);

  it('denies a call that breaks a hard constraint of the task before it runs', async () => {
    expect((await call(base, 'POST', '/v1/tasks', { key: A, body: { taskId: 'cleanup', goal: 'Tidy the report folder. Never call a delete API.' } })).status).toBe(201);
    const headers = { 'x-wayfinder-agent': 'tidy-bot', 'x-wayfinder-task': 'cleanup' };
    const answer = await call(base, 'POST', '/v1/hooks/pre-tool-use', { key: A, headers, body: hook('PreToolUse', 1, { session_id: 'sess-7', tool_name: 'delete_file', tool_input: { path: 'reports/old.md' } }) });
    expect(answer.body.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('"delete_file" is a delete tool') });
    const allowed = await call(base, 'POST', '/v1/hooks/pre-tool-use', { key: A, headers, body: hook('PreToolUse', 2, { session_id: 'sess-7', tool_name: 'Read', tool_input: { file_path: 'reports/old.md' } }) });
    expect(allowed).toMatchObject({ status: 200, body: {} });
  });

  it('answers bad input with a 400 naming the field, and no key with a 401', async () => {
    expect(await call(base, 'POST', '/v1/hooks/pre-tool-use', { key: A, body: { ...hook('PreToolUse', 1), session_id: undefined } })).toMatchObject({ status: 400, body: { field: 'session_id' } });
    expect(await call(base, 'POST', '/v1/hooks/post-tool-use', { key: A, body: hook('PreToolUse', 1) })).toMatchObject({ status: 400, body: { field: 'hook_event_name' } });
    expect(await call(base, 'POST', '/v1/hooks/pre-tool-use', { key: A, body: { ...hook('PreToolUse', 1), tool_input: 'ls' } })).toMatchObject({ status: 400, body: { field: 'tool_input' } });
    expect(await call(base, 'POST', '/v1/hooks/pre-tool-use', { key: A, raw: '{not json' })).toMatchObject({ status: 400 });
    expect((await call(base, 'POST', '/v1/hooks/pre-tool-use', { body: hook('PreToolUse', 1) })).status).toBe(401);
  });
});
