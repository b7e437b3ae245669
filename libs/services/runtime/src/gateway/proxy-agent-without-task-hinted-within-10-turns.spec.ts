// Issue #30, "a fast agent is corrected late": proxy agents rarely post a task, and their steps used to
// wait 5 s for a map that was never coming, so the `openai` client looping 30 tool calls against a quick
// upstream got no hint in any request. Now the steps of a task with no posted map are localized at once.
// The real `openai` client, no task posted and no X-Wayfinder-Task, takes a turn every 100 ms (a fast
// model), answering each tool call with the same failure: the hint reaches the upstream, as a system
// message, within 10 turns of the loop's start, worded for an agent without a map (embedded runtime).
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { RunningServices } from '../runtime';
import { startFakeLlmUpstream, type FakeLlmUpstream } from './fake-llm-upstream.testing';
import { call, startWithGateway } from './gateway.testing';

const KEY = 'acme-fast-proxy-key';
const TURN_MS = 100;
const TOOLS: ChatCompletionTool[] = [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];

describe('a proxy agent with no posted task', () => {
  let upstream: FakeLlmUpstream;
  let running: RunningServices;

  beforeAll(async () => {
    upstream = await startFakeLlmUpstream();
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${KEY}`, WAYFINDER_EGRESS_ALLOW: '127.0.0.1' });
    expect((await call(running.gateway!.url, 'PUT', '/v1/policy', { key: KEY, body: { policy: {}, proxy: { upstream: upstream.url } } })).status).toBe(200); // eslint-disable-line @typescript-eslint/no-non-null-assertion
  });
  afterAll(async () => {
    await running?.stop();
    await upstream?.close();
  });

  it('taking a turn every 100 ms gets its hint within 10 turns', async () => {
    const openai = new OpenAI({ apiKey: 'sk-upstream', baseURL: `${running.gateway!.url}/v1`, maxRetries: 0, defaultHeaders: { 'X-Wayfinder-Key': KEY, 'X-Wayfinder-Agent': 'fast-looper' } }); // eslint-disable-line @typescript-eslint/no-non-null-assertion
    const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: 'You are the report agent.' }, { role: 'user', content: 'Write the sales report.' }];
    const hinted = (n: number) => upstream.requests[n]?.body.messages.some((m) => m.role === 'system' && typeof m.content === 'string' && m.content.startsWith('[Wayfinder]'));
    let hintedAt: number | undefined;
    for (let turn = 1; turn <= 30 && hintedAt === undefined; turn++) {
      const before = upstream.requests.length;
      const answer = await openai.chat.completions.create({ model: 'fake', messages, tools: TOOLS });
      if (hinted(before)) hintedAt = turn;
      const said = answer.choices[0].message;
      const toolCall = said.tool_calls![0]; // eslint-disable-line @typescript-eslint/no-non-null-assertion
      messages.push(said, { role: 'tool', tool_call_id: toolCall.id, content: 'EACCES: permission denied' });
      await new Promise((resolve) => setTimeout(resolve, TURN_MS));
    }
    expect(hintedAt).toBeDefined();
    expect(hintedAt).toBeLessThanOrEqual(10);
    const hint = upstream.requests.at(-1)!.body.messages.find((m) => m.role === 'system' && String(m.content).startsWith('[Wayfinder]'))!; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    expect(hint.content).toMatch(/`read_file`/);
    expect(hint.content).not.toMatch(/milestone/);
  }, 60_000);
});
