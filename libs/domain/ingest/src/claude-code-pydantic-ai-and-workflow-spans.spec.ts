/**
 * Span shapes of three more instrumentations, written by hand from their public documentation (no
 * recorded trace copied): Claude Code / the Claude Agent SDK (`claude_code.tool` with `tool_name` and
 * `tool_use_id`, its outcome on the `claude_code.tool.execution` child; an SDK that sets
 * `gen_ai.operation.name: execute_tool` with only `tool_name`), pydantic-ai's `running tool` spans
 * (`gen_ai.tool.name`, `tool_arguments`, `tool_response`), and a GenAI `invoke_workflow` span around
 * agents (structure, never an agent of its own: a guard, the mapping treated it so before).
 */
import { exportRequest, spanHex, stepsOf, summary } from './testing/otlp-fixture';

describe('Claude Code and Claude Agent SDK tool spans', () => {
  const resource = { 'service.name': 'claude-code' };
  const session = { 'session.id': 'sess-9' };
  const spans = [
    { id: 'I', name: 'claude_code.interaction', start: 0, end: 3000, attrs: { ...session, 'user_prompt_length': 42 } },
    { id: 'Q', parent: 'I', name: 'claude_code.llm_request', start: 10, end: 400, attrs: { ...session, model: 'claude-sonnet-4-5' } },
    { id: 'T1', parent: 'I', name: 'claude_code.tool', start: 500, end: 900, attrs: { ...session, tool_name: 'Read', tool_use_id: 'toolu_01', 'gen_ai.tool.call.id': 'toolu_01', file_path: '/repo/data/sales.csv' } },
    { id: 'B1', parent: 'T1', name: 'claude_code.tool.blocked_on_user', start: 510, end: 520, attrs: { ...session, decision: 'accept' } },
    { id: 'E1', parent: 'T1', name: 'claude_code.tool.execution', start: 520, end: 890, attrs: { ...session, success: false, error: 'EACCES: permission denied' } },
    { id: 'T2', parent: 'I', name: 'claude_code.tool', start: 1000, end: 1400, attrs: { ...session, tool_name: 'Bash', tool_use_id: 'toolu_02', full_command: 'ls data' }, events: [{ name: 'tool.output', time: 1390, attrs: { output: 'sales.csv' } }] },
    { id: 'E2', parent: 'T2', name: 'claude_code.tool.execution', start: 1010, end: 1390, attrs: { ...session, success: true } },
  ];
  const steps = stepsOf([exportRequest(resource, spans)]);

  it('maps each tool call by its tool name and use id, with the outcome of its execution', () => {
    expect(summary(steps)).toEqual([
      'action Read {"file_path":"/repo/data/sales.csv"} #toolu_01',
      expect.stringMatching(/^observation Read error EACCES: permission denied \{"wayfinder\.unknown":"u[0-9a-f]+"\} #toolu_01$/), // no result recorded
      'action Bash {"full_command":"ls data"} #toolu_02',
      'observation Bash ok "sales.csv" #toolu_02',
    ]);
    expect(steps.every((s) => s.attributes?.['otlp.convention'] === 'claude-code')).toBe(true);
    expect(steps.every((s) => s.taskId === 'sess-9')).toBe(true);
  });

  it('reads an SDK span that names the GenAI operation but gives the tool only as tool_name', () => {
    const sdk = stepsOf([
      exportRequest({ 'service.name': 'agent-sdk-app' }, [
        { id: 'X', name: 'execute_tool', start: 0, end: 100, attrs: { 'gen_ai.operation.name': 'execute_tool', tool_name: 'Grep', 'gen_ai.tool.call.id': 'toolu_9', 'gen_ai.tool.call.arguments': '{"pattern":"TODO"}', 'gen_ai.tool.call.result': 'no matches' } },
      ]),
    ]);
    expect(summary(sdk)).toEqual(['action Grep {"pattern":"TODO"} #toolu_9', 'observation Grep ok "no matches" #toolu_9']);
  });
});

describe("pydantic-ai's running tool spans", () => {
  it('maps the tool, its arguments and its response', () => {
    const steps = stepsOf([
      exportRequest({ 'service.name': 'pydantic-ai-app' }, [
        { id: 'A', name: 'agent run', start: 0, end: 1000, attrs: { 'gen_ai.agent.name': 'analyst', 'gen_ai.operation.name': 'invoke_agent' } },
        { id: 'R', parent: 'A', name: 'running tool', start: 100, end: 300, attrs: { 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.id': 'call_1', tool_arguments: '{"q":"totals"}', tool_response: '{"rows":0}', 'logfire.msg': 'running tool: lookup' } },
      ]),
    ]);
    expect(summary(steps)).toEqual(['action lookup {"q":"totals"} #call_1', 'observation lookup ok "{\\"rows\\":0}" #call_1']);
    expect(steps[0]).toMatchObject({ agentId: 'analyst', runId: spanHex('A') });
  });
});

describe('a GenAI invoke_workflow span around two agents', () => {
  it('is structure: each agent keeps its own run, the workflow is no agent', () => {
    const steps = stepsOf([
      exportRequest({ 'service.name': 'crew' }, [
        { id: 'W', name: 'invoke_workflow report', start: 0, end: 2000, attrs: { 'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.workflow.name': 'report' } },
        { id: 'A1', parent: 'W', name: 'invoke_agent reader', start: 10, end: 900, attrs: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'reader' } },
        { id: 'T1', parent: 'A1', name: 'execute_tool read_file', start: 100, end: 200, attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'read_file', 'gen_ai.tool.call.arguments': '{"path":"a"}', 'gen_ai.tool.call.result': 'x' } },
        { id: 'A2', parent: 'W', name: 'invoke_agent writer', start: 1000, end: 1900, attrs: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'writer' } },
        { id: 'T2', parent: 'A2', name: 'execute_tool write_file', start: 1100, end: 1200, attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'write_file', 'gen_ai.tool.call.arguments': '{"path":"b"}', 'gen_ai.tool.call.result': 'ok' } },
      ]),
    ]);
    expect(steps.map((s) => [s.agentId, s.runId, s.kind])).toEqual([
      ['reader', spanHex('A1'), 'action'],
      ['reader', spanHex('A1'), 'observation'],
      ['writer', spanHex('A2'), 'action'],
      ['writer', spanHex('A2'), 'observation'],
    ]);
  });
});
