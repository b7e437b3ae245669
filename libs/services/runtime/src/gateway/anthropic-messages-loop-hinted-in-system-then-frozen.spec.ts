// Anthropic's Messages API through the LLM proxy (embedded, every service in process), driven by the
// real `@anthropic-ai/sdk` (its base URL the gateway, the Wayfinder headers its default headers, its own
// API key the upstream's) against a fake upstream that keeps asking for the same tool use, the agent
// answering each with the same failed tool_result. The tool uses and tool results become actions and
// observations; once the loop is detected the request reaching the upstream carries the hint appended to
// its `system` string, once; after the freeze the SDK raises the 423 error saying why, nothing forwarded.
// The agent's x-api-key, anthropic-version and anthropic-beta reach the upstream untouched, Wayfinder's
// headers never do; bad input is a 400 in Anthropic's error shape.
import Anthropic, { APIError } from '@anthropic-ai/sdk';
import type { StepEvent } from '@wayfinder/contracts';
import type { RunningServices } from '../runtime';
import { startFakeAnthropicUpstream, FAKE_TEXT, type FakeAnthropicUpstream } from './fake-anthropic-upstream.testing';
import { call, eventually, REPORT_TASK, startWithGateway } from './gateway.testing';

const A = 'acme-messages-key';
const UPSTREAM_KEY = 'sk-ant-upstream-secret-of-the-agent';
const SYSTEM = 'You are the report agent. Use the tools.';
const TOOLS = [{ name: 'read_file', description: 'Reads a file', input_schema: { type: 'object' as const, properties: { path: { type: 'string' } } } }];
type Param = Anthropic.MessageParam;

describe('Anthropic messages through the proxy', () => {
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

  it('makes steps of tool uses and results, hints in system once, and the SDK raises the freeze', async () => {
    // What the SDK itself sends (its auth header and API version are its own choice): the upstream must see the same.
    const sent: Headers[] = [];
    const fetchSeen: typeof fetch = (input, init) => {
      sent.push(new Headers(init?.headers));
      return fetch(input, init);
    };
    const client = new Anthropic({ apiKey: UPSTREAM_KEY, baseURL: base, maxRetries: 0, timeout: 20_000, fetch: fetchSeen, defaultHeaders: { 'X-Wayfinder-Key': A, 'X-Wayfinder-Agent': 'claude-looper', 'X-Wayfinder-Task': 'report', 'anthropic-beta': 'tools-2099-01-01' } });
    const messages: Param[] = [{ role: 'user', content: 'Read the sales data, compute the totals, write the report.' }];
    let frozen: APIError | undefined;
    for (let i = 0; i < 300 && !frozen; i++) {
      try {
        const answer = await client.messages.create({ model: 'claude-fake', max_tokens: 256, system: SYSTEM, messages, tools: TOOLS });
        const use = answer.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
        expect(use).toMatchObject({ name: 'read_file', input: { path: '/data/sales.csv' } });
        messages.push({ role: 'assistant', content: answer.content });
        messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'EACCES: permission denied', is_error: true }] });
      } catch (error) {
        if (!(error instanceof APIError)) throw error;
        frozen = error;
      }
      await new Promise((r) => setTimeout(r, 100));
    }

    // The hint: appended to the agent's system string in one request, the rest of it as the agent sent it.
    const corrections = (await call(base, 'GET', '/v1/agents/claude-looper/corrections', { key: A })).body.corrections as Array<{ action: string; hint?: { text: string } }>;
    const hint = corrections.find((c) => c.action === 'hint')!;
    expect(hint).toBeDefined();
    const hinted = upstream.requests.filter((r) => r.body.system === `${SYSTEM}\n\n${hint.hint!.text}`);
    expect(hinted).toHaveLength(1);
    // Every request carries the agent's system prompt, with at most one piece of guidance after it, each once.
    const guided = upstream.requests.filter((r) => r.body.system !== SYSTEM).map((r) => r.body.system as string);
    expect(guided.every((text) => text.startsWith(`${SYSTEM}\n\n`))).toBe(true);
    expect(new Set(guided).size).toBe(guided.length);
    const at = upstream.requests.indexOf(hinted[0]);
    expect(at).toBeGreaterThan(0);
    const before = upstream.requests[at - 1].body.messages;
    expect(hinted[0].body.messages.slice(0, before.length)).toEqual(before);

    // Headers: the agent's own pass through untouched, Wayfinder's never.
    expect(sent.length).toBeGreaterThanOrEqual(upstream.requests.length);
    upstream.requests.forEach((r, i) => {
      expect(r.path).toBe('/v1/messages');
      for (const name of ['x-api-key', 'authorization', 'anthropic-version', 'anthropic-beta']) expect(r.headers[name]).toBe(sent[i].get(name) ?? undefined);
      expect(Object.keys(r.headers).filter((h) => h.startsWith('x-wayfinder'))).toEqual([]);
    });
    expect(upstream.requests[0].headers['anthropic-beta']).toBe('tools-2099-01-01');
    expect([upstream.requests[0].headers['x-api-key'], upstream.requests[0].headers.authorization]).toContainEqual(expect.stringContaining(UPSTREAM_KEY));

    // Frozen: the SDK raises a 423 in Anthropic's shape that says why; nothing more reaches the upstream.
    expect(frozen).toBeDefined();
    expect(frozen!.status).toBe(423);
    expect(frozen!.error).toMatchObject({ type: 'error', error: { type: 'permission_error', message: expect.stringMatching(/^Wayfinder froze agent claude-looper: .+ A human must resume it/) } });
    const forwarded = upstream.requests.length;
    await expect(client.messages.create({ model: 'claude-fake', max_tokens: 256, system: SYSTEM, messages, tools: TOOLS })).rejects.toMatchObject({ status: 423 });
    expect(upstream.requests.length).toBe(forwarded);

    // Steps: each answer's text a message and its tool use an action (usage on the first), each tool_result a failed observation of it.
    const turns = forwarded;
    await eventually(async () => steps.filter((s) => s.agentId === 'claude-looper' && s.kind === 'observation').length >= turns, 10_000, `the ${turns} observations`);
    const mine = steps.filter((s) => s.agentId === 'claude-looper').sort((x, y) => x.seq - y.seq);
    expect(mine.slice(0, 6).map((s) => s.kind)).toEqual(['message', 'action', 'observation', 'message', 'action', 'observation']);
    expect(mine.map((s) => s.seq).slice(0, 6)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(new Set(mine.map((s) => s.eventId)).size).toBe(mine.length);
    expect(mine[0]).toMatchObject({ taskId: 'report', message: { role: 'assistant', text: FAKE_TEXT }, usage: { inputTokens: 30, outputTokens: 12 } });
    expect(mine[1]).toMatchObject({ action: { tool: 'read_file', args: { path: '/data/sales.csv' }, callId: 'toolu_1' } });
    expect(mine[2]).toMatchObject({ observation: { tool: 'read_file', ok: false, callId: 'toolu_1', error: 'EACCES: permission denied' } });
  }, 120_000);

  it('refuses a bad request with 400 in Anthropic’s error shape, naming the field', async () => {
    const raw = await fetch(`${base}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-wayfinder-key': A, 'x-wayfinder-agent': 'bad', 'x-api-key': UPSTREAM_KEY },
      body: JSON.stringify({ model: 'claude-fake', max_tokens: 5, messages: [{ role: 'robot', content: 'hi' }] }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'messages[0].role must be "user" or "assistant"' } });
    const noKey = await fetch(`${base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': UPSTREAM_KEY }, body: '{}' });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });
});
