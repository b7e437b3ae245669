// A streaming Anthropic agent through the LLM proxy (embedded): the real `@anthropic-ai/sdk`'s
// `messages.stream()` reads the upstream's events through the gateway unchanged (its final message has
// the text and the tool use's input from the input_json_delta fragments); the proxy assembles the same
// stream into steps (the text a message, the tool use an action with its arguments and the usage of
// message_start and message_delta); a `system` of text blocks gets the hint as one more text block at its
// end (the agent's blocks, cache_control included, left as they were), once.
import Anthropic from '@anthropic-ai/sdk';
import type { StepEvent } from '@wayfinder/contracts';
import type { RunningServices } from '../runtime';
import { startFakeAnthropicUpstream, FAKE_TEXT, type FakeAnthropicUpstream } from './fake-anthropic-upstream.testing';
import { call, eventually, REPORT_TASK, startWithGateway } from './gateway.testing';

const A = 'acme-stream-key';
const SYSTEM: Anthropic.TextBlockParam[] = [
  { type: 'text', text: 'You are the report agent.' },
  { type: 'text', text: 'Use the tools.', cache_control: { type: 'ephemeral' } },
];
const TOOLS = [{ name: 'read_file', description: 'Reads a file', input_schema: { type: 'object' as const, properties: { path: { type: 'string' } } } }];

describe('a streaming Anthropic agent through the proxy', () => {
  let upstream: FakeAnthropicUpstream;
  let running: RunningServices;
  let base: string;
  const steps: StepEvent[] = [];

  beforeAll(async () => {
    upstream = await startFakeAnthropicUpstream();
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A}`, WAYFINDER_EGRESS_ALLOW: '127.0.0.1' });
    running.bus.subscribe('wayfinder.steps.v1', async (batch) => void steps.push(...batch.map((d) => d.payload as StepEvent)), { groupId: 'observer' });
    base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    expect((await call(base, 'PUT', '/v1/policy', { key: A, body: { policy: {}, proxy: { upstream: upstream.url } } })).status).toBe(200);
    expect((await call(base, 'POST', '/v1/tasks', { key: A, body: REPORT_TASK })).status).toBe(201);
  });
  afterAll(async () => {
    await running?.stop();
    await upstream?.close();
  });

  it('passes the stream through whole, assembles it into steps, and appends the hint as a last system block', async () => {
    const client = new Anthropic({ apiKey: 'sk-ant-agent', baseURL: base, maxRetries: 0, timeout: 20_000, defaultHeaders: { 'X-Wayfinder-Key': A, 'X-Wayfinder-Agent': 'streamer', 'X-Wayfinder-Task': 'report' } });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Stream the report.' }];
    const hinted = () => upstream.requests.findIndex((r) => Array.isArray(r.body.system) && r.body.system.length > SYSTEM.length);
    for (let i = 0; i < 200 && hinted() < 0; i++) {
      const final = await client.messages.stream({ model: 'claude-fake', max_tokens: 256, system: SYSTEM, messages, tools: TOOLS }).finalMessage();
      expect(final.content[0]).toMatchObject({ type: 'text', text: FAKE_TEXT });
      expect(final.content[1]).toMatchObject({ type: 'tool_use', name: 'read_file', input: { path: '/data/sales.csv' } });
      expect(final.usage).toMatchObject({ input_tokens: 30, output_tokens: 12 });
      const use = final.content[1] as Anthropic.ToolUseBlock;
      messages.push({ role: 'assistant', content: final.content as Anthropic.ContentBlockParam[] });
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: [{ type: 'text', text: 'Error: EACCES: permission denied' }] }] });
      await new Promise((r) => setTimeout(r, 100));
    }
    const at = hinted();
    expect(at).toBeGreaterThan(0);
    const request = upstream.requests[at].body;
    expect(request.stream).toBe(true);
    const corrections = (await call(base, 'GET', '/v1/agents/streamer/corrections', { key: A })).body.corrections as Array<{ action: string; hint?: { text: string } }>;
    const hint = corrections.find((c) => c.action === 'hint')!;
    expect(request.system).toEqual([...SYSTEM, { type: 'text', text: hint.hint!.text }]);
    expect(upstream.requests.filter((r) => JSON.stringify(r.body.system).includes(JSON.stringify(hint.hint!.text)))).toHaveLength(1);

    // Steps from the assembled stream: message, action (usage on the first), observation; dense seqs, each once.
    const turns = upstream.requests.length;
    await eventually(async () => steps.filter((s) => s.agentId === 'streamer' && s.kind === 'action').length >= turns, 10_000, `the streamer's ${turns} actions`);
    const mine = steps.filter((s) => s.agentId === 'streamer').sort((x, y) => x.seq - y.seq);
    expect(new Set(mine.map((s) => s.eventId)).size).toBe(mine.length);
    expect(mine.slice(0, 6).map((s) => [s.seq, s.kind])).toEqual([
      [0, 'message'],
      [1, 'action'],
      [2, 'observation'],
      [3, 'message'],
      [4, 'action'],
      [5, 'observation'],
    ]);
    expect(mine[0]).toMatchObject({ message: { text: FAKE_TEXT }, usage: { inputTokens: 30, outputTokens: 12, latencyMs: expect.any(Number) } });
    expect(mine[1]).toMatchObject({ action: { tool: 'read_file', args: { path: '/data/sales.csv' }, callId: 'toolu_1' } });
    // A result that says it failed is a failed observation without is_error too (as for chat completions).
    expect(mine[2]).toMatchObject({ observation: { tool: 'read_file', ok: false, callId: 'toolu_1' } });
  }, 120_000);
});
