/**
 * The LLM proxy in distributed mode on the real Kafka broker and Redis, every service in this process:
 * the real `openai` client (its base URL the gateway's `/v1`, the tenant key in `X-Wayfinder-Key`, its own
 * API key the upstream's) drives a fake upstream that keeps asking for the same tool call, and the agent
 * answers each call with the same failure. Once the loop is detected, the request that reaches the
 * upstream carries the hint as a system message right after the agent's system prompt, once; after the
 * freeze the client gets a 423 error saying why, until a human resumes the agent. Streaming goes the same
 * way, its tool calls assembled from the deltas. The upstream sees the client's Authorization unchanged,
 * another tenant's key neither sees nor changes this agent's corrections, and bad input is a 400 naming
 * the field in the OpenAI error shape.
 */
import OpenAI, { APIError } from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { StepEvent } from '@wayfinder/contracts';
import { until } from '@wayfinder/testing';
import { startFakeLlmUpstream, type FakeLlmUpstream } from './fake-llm-upstream.testing';
import { call, REPORT_TASK, startGatewayOnKafka, type GatewayOnKafka } from './gateway.testing';

const A = 'acme-proxy-dist-key';
const B = 'globex-proxy-dist-key';
const UPSTREAM_KEY = 'sk-upstream-secret-of-the-agent';
const SYSTEM = 'You are the report agent. Use the tools.';
/**
 * The pause between an agent's turns, as a model's latency would make it. The ladder counts its tolerance
 * window in steps from the correction's seq, so an agent that takes a rung's worth of steps before the
 * correction reaches the gateway gets the next rung's guidance instead (DESIGN §14): 40 ms was within
 * one step → correction latency of a freshly started broker and failed a CI run that way.
 */
const MODEL_LATENCY_MS = 400;
const TOOLS: ChatCompletionTool[] = [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];

describe('the LLM proxy in distributed mode', () => {
  let kafka: GatewayOnKafka;
  let upstream: FakeLlmUpstream;
  let base: string;
  let steps: StepEvent[];

  const client = (key: string, agent: string) =>
    new OpenAI({ apiKey: UPSTREAM_KEY, baseURL: `${base}/v1`, maxRetries: 0, timeout: 20_000, defaultHeaders: { 'X-Wayfinder-Key': key, 'X-Wayfinder-Agent': agent, 'X-Wayfinder-Task': 'report' } });

  /** One turn of the looping agent: ask, then answer the tool call with the same failure. */
  async function turn(openai: OpenAI, messages: ChatCompletionMessageParam[], stream: boolean): Promise<void> {
    let toolCall: { id: string; name: string; arguments: string };
    if (stream) {
      const parts = await openai.chat.completions.create({ model: 'fake', messages, tools: TOOLS, stream: true, stream_options: { include_usage: true } });
      const call = { id: '', name: '', arguments: '' };
      for await (const chunk of parts) {
        for (const d of chunk.choices[0]?.delta.tool_calls ?? []) {
          call.id ||= d.id ?? '';
          call.name += d.function?.name ?? '';
          call.arguments += d.function?.arguments ?? '';
        }
      }
      toolCall = call;
    } else {
      const answer = await openai.chat.completions.create({ model: 'fake', messages, tools: TOOLS });
      const c = answer.choices[0].message.tool_calls![0] as { id: string; function: { name: string; arguments: string } };
      toolCall = { id: c.id, name: c.function.name, arguments: c.function.arguments };
    }
    expect(toolCall).toMatchObject({ name: 'read_file', arguments: '{"path":"/data/sales.csv"}' });
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id: toolCall.id, type: 'function', function: { name: toolCall.name, arguments: toolCall.arguments } }] });
    messages.push({ role: 'tool', tool_call_id: toolCall.id, content: 'Error: EACCES: permission denied' });
  }

  const hinted = (i: number) => upstream.requests[i].body.messages[1]?.role === 'system';

  beforeAll(async () => {
    upstream = await startFakeLlmUpstream();
    kafka = await startGatewayOnKafka('proxy-gw', { WAYFINDER_API_KEYS: `acme:${A},globex:${B}`, WAYFINDER_PROXY_UPSTREAM: upstream.url });
    ({ base, steps } = kafka);
    for (const key of [A, B]) expect((await call(base, 'POST', '/v1/tasks', { key, body: REPORT_TASK })).status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await kafka?.stop();
    await upstream?.close();
  });

  it('puts the hint after the system prompt once, refuses the frozen agent, and lets it through after a resume', async () => {
    const openai = client(A, 'looper');
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: 'Read the sales data, compute the totals, write the report.' },
    ];
    const first = upstream.requests.length;
    let frozen: APIError | undefined;
    for (let i = 0; i < 300 && !frozen; i++) {
      try {
        await turn(openai, messages, false);
      } catch (error) {
        if (!(error instanceof APIError)) throw error;
        frozen = error;
      }
      await new Promise((r) => setTimeout(r, MODEL_LATENCY_MS));
    }
    const mine = upstream.requests.slice(first);
    const hintAt = mine.findIndex((_r, i) => hinted(first + i));
    expect(hintAt).toBeGreaterThan(0);
    const corrections = (await call(base, 'GET', '/v1/agents/looper/corrections', { key: A })).body.corrections as Array<{ action: string; hint?: { text: string }; eventId: string }>;
    const hint = corrections.find((c) => c.action === 'hint')!;
    expect(hint).toBeDefined();
    const request = mine[hintAt].body.messages;
    expect(request[0]).toEqual({ role: 'system', content: SYSTEM });
    expect(request[1]).toEqual({ role: 'system', content: hint.hint!.text });
    expect(request[2]).toMatchObject({ role: 'user' });
    // Without the hint, the request is the agent's conversation as it sent it (the one before, extended).
    const before = mine[hintAt - 1].body.messages;
    expect([request[0], ...request.slice(2)].slice(0, before.length)).toEqual(before);
    // Once: the next request carries the next guidance if any, never the same hint again.
    expect(mine.filter((r) => r.body.messages.some((m) => m.role === 'system' && m.content === hint.hint!.text))).toHaveLength(1);
    // The upstream saw the client's own key on every request, and nothing of Wayfinder's.
    expect(mine.every((r) => r.headers.authorization === `Bearer ${UPSTREAM_KEY}`)).toBe(true);
    expect(mine.some((r) => Object.keys(r.headers).some((h) => h.startsWith('x-wayfinder')))).toBe(false);

    // Frozen: a 423 in the OpenAI shape that says why, and nothing forwarded.
    expect(frozen).toBeDefined();
    expect(frozen!.status).toBe(423);
    expect(frozen!.message).toMatch(/froze agent looper/);
    expect((frozen!.error as { code?: string }).code).toBe('agent_frozen');
    const forwarded = upstream.requests.length;
    await expect(openai.chat.completions.create({ model: 'fake', messages, tools: TOOLS })).rejects.toMatchObject({ status: 423 });
    expect(upstream.requests.length).toBe(forwarded);

    // Another tenant's key: the same agent id is another agent; it is neither frozen nor hinted, and reads none of A's corrections.
    const other = client(B, 'looper');
    await turn(other, [{ role: 'system', content: SYSTEM }, { role: 'user', content: 'hello' }], false);
    expect(upstream.requests.at(-1)!.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect((await call(base, 'GET', '/v1/agents/looper/corrections', { key: B })).body.corrections).toEqual([]);
    expect((await call(base, 'POST', '/v1/agents/looper/resume', { key: B, body: {} })).status).toBe(404);
    await expect(openai.chat.completions.create({ model: 'fake', messages, tools: TOOLS })).rejects.toMatchObject({ status: 423 });

    // A human resumes the agent: its next request goes through.
    expect((await call(base, 'POST', '/v1/agents/looper/resume', { key: A, body: { reason: 'fixed the permissions' } })).status).toBe(202);
    await turn(openai, messages, false);
    expect(upstream.requests.length).toBe(forwarded + 2);
  }, 120_000);

  it('streams through, assembles the streamed tool calls into steps, and hints a streaming agent', async () => {
    const openai = client(A, 'streamer');
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: 'Stream the report.' },
    ];
    const first = upstream.requests.length;
    for (let i = 0; i < 200; i++) {
      await turn(openai, messages, true);
      if (upstream.requests.slice(first).some((_r, j) => hinted(first + j))) break;
      await new Promise((r) => setTimeout(r, MODEL_LATENCY_MS));
    }
    const hintedRequest = upstream.requests.slice(first).find((_r, j) => hinted(first + j));
    expect(hintedRequest?.body.stream).toBe(true);
    expect(hintedRequest!.body.messages[0]).toEqual({ role: 'system', content: SYSTEM });
    const turns = upstream.requests.length - first;
    expect(turns).toBeGreaterThan(2);
    await until(() => steps.filter((s) => s.agentId === 'streamer' && s.kind === 'action').length >= turns, 20_000, `the streamer’s ${turns} actions`);
    const actions = steps.filter((s): s is Extract<StepEvent, { kind: 'action' }> => s.agentId === 'streamer' && s.kind === 'action');
    expect(actions[0].action).toMatchObject({ tool: 'read_file', args: { path: '/data/sales.csv' }, callId: expect.stringMatching(/^call_/) });
    expect(actions[0].usage).toMatchObject({ inputTokens: 20, outputTokens: 5 });
    const observations = steps.filter((s) => s.agentId === 'streamer' && s.kind === 'observation');
    expect(observations[0]).toMatchObject({ observation: { tool: 'read_file', ok: false, callId: actions[0].action.callId } });
    // Each step once, with dense seqs (action, observation, action, …).
    const mine = steps.filter((s) => s.agentId === 'streamer');
    expect(new Set(mine.map((s) => s.eventId)).size).toBe(mine.length);
    const seqs = mine.map((s) => s.seq).sort((x, y) => x - y);
    expect(seqs.slice(0, 6)).toEqual([0, 1, 2, 3, 4, 5]);
  }, 120_000);

  it('passes an upstream error back as it came', async () => {
    const raw = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-wayfinder-key': A, 'x-wayfinder-agent': 'teapot', authorization: `Bearer ${UPSTREAM_KEY}` },
      body: JSON.stringify({ model: 'fake', messages: [{ role: 'user', content: 'fail with 418' }] }),
    });
    expect(raw.status).toBe(418);
    expect(raw.headers.get('x-request-id')).toBe('req-teapot');
    expect(raw.headers.get('set-cookie')).toBeNull();
    expect(await raw.json()).toEqual({ error: { message: 'I am a teapot', type: 'invalid_request_error', param: 'messages', code: 'teapot' } });
  });

  it('answers bad input with a 400 naming the field, and a missing or wrong key with a 401', async () => {
    const post = (headers: Record<string, string>, body: unknown) => fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const noAgent = await post({ 'x-wayfinder-key': A }, { model: 'fake', messages: [{ role: 'user', content: 'hi' }] });
    expect(noAgent.status).toBe(400);
    expect(await noAgent.json()).toMatchObject({ error: { type: 'invalid_request_error', param: 'X-Wayfinder-Agent', message: expect.stringContaining('X-Wayfinder-Agent') } });
    const badRole = await post({ 'x-wayfinder-key': A }, { model: 'fake', user: 'someone', messages: [{ role: 'user', content: 'hi' }, { content: 'no role' }] });
    expect(badRole.status).toBe(400);
    expect(((await badRole.json()) as { error: unknown }).error).toMatchObject({ param: 'messages[1].role' });
    const noKey = await post({ authorization: `Bearer ${A}` }, { model: 'fake', user: 'someone', messages: [{ role: 'user', content: 'hi' }] });
    expect(noKey.status).toBe(401);
    expect(((await noKey.json()) as { error: unknown }).error).toMatchObject({ type: 'authentication_error', message: expect.stringContaining('X-Wayfinder-Key') });
  });
});
