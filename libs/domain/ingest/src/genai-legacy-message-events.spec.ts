/**
 * The older GenAI form: the completion as a `gen_ai.choice` span event (message with OpenAI-style
 * tool_calls), the tool span without a call id, so the call pairs with it by tool name and arguments.
 */
import { exportRequest, stepsOf, summary } from './testing/otlp-fixture';

const resource = { 'service.name': 'search-service', 'wayfinder.agent.id': 'researcher-1' };
const spans = [
  { id: 'A', name: 'invoke_agent researcher', start: 0, end: 3000, attrs: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'researcher' } },
  {
    id: 'L1', parent: 'A', name: 'chat claude', start: 10, end: 500,
    attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 50, 'gen_ai.usage.output_tokens': 12 },
    events: [
      { name: 'gen_ai.user.message', time: 10, attrs: { content: 'find papers on loops' } },
      {
        name: 'gen_ai.choice', time: 500,
        attrs: { index: 0, finish_reason: 'tool_calls', message: JSON.stringify({ role: 'assistant', tool_calls: [{ id: 'tc-9', type: 'function', function: { name: 'search', arguments: '{"q":"agent loops"}' } }] }) },
      },
    ],
  },
  { id: 'T1', parent: 'A', name: 'execute_tool search', start: 600, end: 900, attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search', 'gen_ai.tool.call.arguments': '{"q":"agent loops"}', 'gen_ai.tool.call.result': '3 results' } },
  {
    id: 'L2', parent: 'A', name: 'chat claude', start: 1000, end: 1400,
    attrs: { 'gen_ai.operation.name': 'chat' },
    events: [{ name: 'gen_ai.choice', time: 1400, attrs: { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Found three papers.' } } }],
  },
];

describe('GenAI per-message events and a tool span without a call id', () => {
  const steps = stepsOf([exportRequest(resource, spans)]);

  it('reads the choice event, pairs the call by tool name and arguments, and keeps the call id for the observation', () => {
    expect(summary(steps)).toEqual([
      'action search {"q":"agent loops"} #tc-9',
      'observation search ok "3 results" #tc-9',
      'message assistant "Found three papers."',
    ]);
  });

  it('takes an explicit wayfinder.agent.id resource attribute before gen_ai.agent.name, and the trace id as task without a conversation id', () => {
    expect(new Set(steps.map((s) => s.agentId))).toEqual(new Set(['researcher-1']));
    expect(steps[0].taskId).toBe(steps[0].attributes?.['otel.trace_id']);
    expect(steps[0].usage).toMatchObject({ inputTokens: 50, outputTokens: 12 });
  });
});
