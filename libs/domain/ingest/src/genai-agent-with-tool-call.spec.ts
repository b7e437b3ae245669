/** OpenTelemetry GenAI conventions: invoke_agent → chat (tool call) → execute_tool → chat (answer). */
import { BASE_MS, exportRequest, spanHex, stepsOf, summary, traceHex } from './testing/otlp-fixture';

const resource = { 'service.name': 'weather-service' };
const agent = { id: 'A', name: 'invoke_agent weather-bot', start: 0, end: 2500, attrs: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.id': 'agent-42', 'gen_ai.agent.name': 'weather-bot', 'gen_ai.conversation.id': 'conv-7' } };
const chat1 = {
  id: 'L1', parent: 'A', name: 'chat gpt-4o', start: 100, end: 900,
  attrs: {
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': 'gpt-4o',
    'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] }]),
    'gen_ai.output.messages': JSON.stringify([
      { role: 'assistant', parts: [{ type: 'text', content: 'Checking the weather.' }, { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }], finish_reason: 'tool_call' },
    ]),
    'gen_ai.usage.input_tokens': 120,
    'gen_ai.usage.output_tokens': 30,
  },
};
const tool1 = {
  id: 'T1', parent: 'A', name: 'execute_tool get_weather', start: 1000, end: 1500,
  attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_weather', 'gen_ai.tool.call.id': 'call_1', 'gen_ai.tool.call.arguments': '{"city":"Paris"}', 'gen_ai.tool.call.result': '{"temp":18}' },
};
const chat2 = {
  id: 'L2', parent: 'A', name: 'chat gpt-4o', start: 1600, end: 2400,
  attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'It is 18°C in Paris.' }], finish_reason: 'stop' }]) },
};

describe('a GenAI-convention agent run with one tool call', () => {
  const steps = stepsOf([exportRequest(resource, [chat1, tool1]), exportRequest(resource, [chat2, agent])]);

  it('maps the LLM output to a message and the requested call, the tool span to the observation, in event order', () => {
    expect(summary(steps)).toEqual([
      'message assistant "Checking the weather."',
      'action get_weather {"city":"Paris"} #call_1',
      'observation get_weather ok "{\\"temp\\":18}" #call_1',
      'message assistant "It is 18°C in Paris."',
    ]);
  });

  it('takes the agent from gen_ai.agent.id, the task from gen_ai.conversation.id and the run from the agent span', () => {
    for (const step of steps) {
      expect(step).toMatchObject({ tenantId: 'acme', agentId: 'agent-42', taskId: 'conv-7', runId: spanHex('A') });
    }
    expect(steps.map((s) => s.seq)).toEqual([0, 1, 2, 3]);
  });

  it('places the call at its tool span start, messages at the LLM span end, and carries usage on the first step of the turn', () => {
    expect(steps.map((s) => Date.parse(s.ts) - BASE_MS)).toEqual([900, 1000, 1500, 2400]);
    expect(steps[0].usage).toEqual({ inputTokens: 120, outputTokens: 30, latencyMs: 800 });
    expect(steps[1].usage).toBeUndefined();
  });

  it('derives event ids from trace, span and part', () => {
    const t = traceHex('t1');
    expect(steps.map((s) => s.eventId)).toEqual([
      `otlp:${t}:${spanHex('L1')}:msg.0`,
      `otlp:${t}:${spanHex('L1')}:call.0`,
      `otlp:${t}:${spanHex('T1')}:obs`,
      `otlp:${t}:${spanHex('L2')}:msg.0`,
    ]);
    expect(steps[2].attributes).toMatchObject({ 'otel.trace_id': t, 'otel.span_id': spanHex('T1'), 'otlp.convention': 'genai' });
  });
});
