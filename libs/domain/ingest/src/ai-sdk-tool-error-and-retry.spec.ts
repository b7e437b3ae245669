/**
 * Vercel AI SDK: `ai.generateText` (the run) with `ai.generateText.doGenerate` LLM calls and `ai.toolCall`
 * tool spans. The first call fails (span status error with an exception event), the model retries with
 * the same arguments, the retry succeeds.
 */
import { exportRequest, spanHex, stepsOf, summary } from './testing/otlp-fixture';

const resource = { 'service.name': 'next-app' };
const gen = (id: string, start: number, end: number, out: Record<string, unknown>) => ({
  id, parent: 'RUN', name: 'ai.generateText.doGenerate', start, end,
  attrs: { 'ai.operationId': 'ai.generateText.doGenerate', 'operation.name': 'ai.generateText.doGenerate shop', 'ai.usage.inputTokens': 40, 'ai.usage.outputTokens': 9, ...out },
});
const toolCalls = (id: string) => JSON.stringify([{ toolCallId: id, toolName: 'placeOrder', input: { sku: 'A-1', qty: 2 } }]);
const spans = [
  gen('G1', 10, 200, { 'ai.response.toolCalls': toolCalls('tc1') }),
  {
    id: 'X1', parent: 'RUN', name: 'ai.toolCall', start: 210, end: 400,
    attrs: { 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'placeOrder', 'ai.toolCall.id': 'tc1', 'ai.toolCall.args': '{"sku":"A-1","qty":2}' },
    events: [{ name: 'exception', time: 400, attrs: { 'exception.type': 'Error', 'exception.message': 'inventory service unavailable' } }],
    status: { code: 2 as const, message: 'inventory service unavailable' },
  },
  gen('G2', 410, 600, { 'ai.response.toolCalls': toolCalls('tc2') }),
  { id: 'X2', parent: 'RUN', name: 'ai.toolCall', start: 610, end: 800, attrs: { 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'placeOrder', 'ai.toolCall.id': 'tc2', 'ai.toolCall.args': '{"sku":"A-1","qty":2}', 'ai.toolCall.result': '{"orderId":"o-77"}' } },
  gen('G3', 810, 900, { 'ai.response.text': 'Ordered: o-77.' }),
  { id: 'RUN', name: 'ai.generateText', start: 0, end: 950, attrs: { 'ai.operationId': 'ai.generateText', 'ai.telemetry.functionId': 'shop-assistant' } },
];

describe('AI SDK tool call that fails and is retried', () => {
  const steps = stepsOf([exportRequest(resource, spans.slice(0, 2)), exportRequest(resource, spans.slice(2))]);

  it('maps the failure to an observation with the error and the retry to a second call', () => {
    const lines = summary(steps);
    expect(lines[0]).toBe('action placeOrder {"sku":"A-1","qty":2} #tc1');
    // No result was recorded for the failed call: its content is an unknown of its own.
    expect(lines[1]).toMatch(/^observation placeOrder error inventory service unavailable \{"wayfinder.unknown":"u[0-9a-f]{16}"\} #tc1$/);
    expect(lines.slice(2)).toEqual([
      'action placeOrder {"sku":"A-1","qty":2} #tc2',
      'observation placeOrder ok "{\\"orderId\\":\\"o-77\\"}" #tc2',
      'message assistant "Ordered: o-77."',
    ]);
    expect(steps[1].attributes?.['wayfinder.unknown']).toEqual(['content']);
  });

  it('runs under the generateText span, named by its telemetry functionId', () => {
    for (const s of steps) expect(s).toMatchObject({ agentId: 'shop-assistant', runId: spanHex('RUN') });
    expect(steps.map((s) => s.seq)).toEqual([0, 1, 2, 3, 4]);
  });
});
