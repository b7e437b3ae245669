/**
 * OpenInference: an AGENT span, an LLM span whose output message requests two tool calls at once
 * (flattened `llm.output_messages.0.message.tool_calls.<j>.tool_call.*`), and two TOOL spans running in
 * parallel that carry no call id: each pairs with its call by tool name and `input.value`.
 */
import { BASE_MS, exportRequest, spanHex, stepsOf, summary } from './testing/otlp-fixture';

const resource = { 'service.name': 'travel-agent' };
const call = (j: number, id: string, city: string) => ({
  [`llm.output_messages.0.message.tool_calls.${j}.tool_call.id`]: id,
  [`llm.output_messages.0.message.tool_calls.${j}.tool_call.function.name`]: 'get_weather',
  [`llm.output_messages.0.message.tool_calls.${j}.tool_call.function.arguments`]: JSON.stringify({ city }),
});
const spans = [
  { id: 'LLM', parent: 'AG', name: 'ChatCompletion', start: 100, end: 700, attrs: { 'openinference.span.kind': 'LLM', 'session.id': 'sess-3', 'llm.output_messages.0.message.role': 'assistant', ...call(0, 'call_a', 'Oslo'), ...call(1, 'call_b', 'Rome'), 'llm.token_count.prompt': 80, 'llm.token_count.completion': 20 } },
  // Rome starts first and ends last: the actions follow the tool starts, the observations their ends.
  { id: 'TR', parent: 'AG', name: 'get_weather', start: 710, end: 1300, attrs: { 'openinference.span.kind': 'TOOL', 'tool.name': 'get_weather', 'input.value': '{"city":"Rome"}', 'input.mime_type': 'application/json', 'output.value': 'sunny', 'session.id': 'sess-3' } },
  { id: 'TO', parent: 'AG', name: 'get_weather', start: 720, end: 900, attrs: { 'openinference.span.kind': 'TOOL', 'tool.name': 'get_weather', 'input.value': '{"city":"Oslo"}', 'output.value': 'snow', 'session.id': 'sess-3' } },
  { id: 'CH', parent: 'AG', name: 'summarize', start: 1310, end: 1400, attrs: { 'openinference.span.kind': 'CHAIN', 'input.value': 'x', 'output.value': 'y' } },
  { id: 'AG', name: 'agent', start: 0, end: 1500, attrs: { 'openinference.span.kind': 'AGENT', 'agent.name': 'planner', 'session.id': 'sess-3' } },
];

describe('OpenInference parallel tool calls', () => {
  const steps = stepsOf([exportRequest(resource, spans.slice(0, 3)), exportRequest(resource, spans.slice(3))]);

  it('pairs each call with its tool span by arguments and orders steps by event time', () => {
    expect(summary(steps)).toEqual([
      'action get_weather {"city":"Rome"} #call_b',
      'action get_weather {"city":"Oslo"} #call_a',
      'observation get_weather ok "snow" #call_a',
      'observation get_weather ok "sunny" #call_b',
    ]);
    expect(steps.map((s) => Date.parse(s.ts) - BASE_MS)).toEqual([710, 720, 900, 1300]);
  });

  it('takes agent.name of the AGENT span, session.id as task, and gives the usage to the first call of the turn', () => {
    for (const s of steps) expect(s).toMatchObject({ agentId: 'planner', taskId: 'sess-3', runId: spanHex('AG') });
    const withUsage = steps.filter((s) => s.usage);
    expect(withUsage).toHaveLength(1);
    expect(withUsage[0].usage).toMatchObject({ inputTokens: 80, outputTokens: 20 });
  });

  it('makes no step of a CHAIN span', () => {
    expect(steps.some((s) => s.attributes?.['otel.span_id'] === spanHex('CH'))).toBe(false);
  });
});
