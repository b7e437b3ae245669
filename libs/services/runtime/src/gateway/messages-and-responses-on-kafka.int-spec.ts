/**
 * Issue #30's acceptance on the real Kafka broker and Redis (distributed mode, every service in this
 * process), as the embedded specs do it (anthropic-messages-loop-hinted-in-system-then-frozen.spec.ts,
 * openai-responses-loop-hinted-in-instructions-then-frozen.spec.ts): the real `@anthropic-ai/sdk` through
 * `/v1/messages` and the real `openai` client's `responses.create`, each against a fake upstream that keeps
 * asking for the same tool call, the agent answering with the same failure. The hint reaches the upstream
 * once (appended to `system`, to `instructions`), and after the freeze the client raises the 423 saying
 * why and how to resume, nothing more forwarded.
 */
import Anthropic, { APIError as AnthropicError } from '@anthropic-ai/sdk';
import OpenAI, { APIError as OpenAIError } from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from './fake-anthropic-upstream.testing';
import { startFakeResponsesUpstream, type FakeResponsesUpstream } from './fake-responses-upstream.testing';
import { call, startGatewayOnKafka, type GatewayOnKafka } from './gateway.testing';

const CLAUDE_KEY = 'acme-messages-kafka-key';
const CODEX_KEY = 'globex-responses-kafka-key';
const SYSTEM = 'You are the report agent. Use the tools.';
/** The pause between turns, as a model's latency would make it (see gateway-llm-proxy-loop-corrected.int-spec.ts). */
const MODEL_LATENCY_MS = 400;
const FROZEN = /^Wayfinder froze agent [\w-]+: .+ A human must resume it: `npx wayfinder agent resume [\w-]+`/;

describe('Messages and Responses through the proxy on Kafka', () => {
  let kafka: GatewayOnKafka;
  let anthropic: FakeAnthropicUpstream;
  let responses: FakeResponsesUpstream;
  let base: string;

  beforeAll(async () => {
    anthropic = await startFakeAnthropicUpstream();
    responses = await startFakeResponsesUpstream();
    kafka = await startGatewayOnKafka('dialects', { WAYFINDER_API_KEYS: `acme:${CLAUDE_KEY},globex:${CODEX_KEY}`, WAYFINDER_EGRESS_ALLOW: '127.0.0.1' });
    base = kafka.base;
    expect((await call(base, 'PUT', '/v1/policy', { key: CLAUDE_KEY, body: { policy: {}, proxy: { upstream: anthropic.url } } })).status).toBe(200);
    expect((await call(base, 'PUT', '/v1/policy', { key: CODEX_KEY, body: { policy: {}, proxy: { upstream: responses.url } } })).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await kafka?.stop();
    await anthropic?.close();
    await responses?.close();
  });

  async function hintOf(key: string, agent: string): Promise<string> {
    const corrections = (await call(base, 'GET', `/v1/agents/${agent}/corrections`, { key })).body.corrections as Array<{ action: string; hint?: { text: string } }>;
    const hint = corrections.find((c) => c.action === 'hint');
    expect(hint).toBeDefined();
    return hint!.hint!.text; // eslint-disable-line @typescript-eslint/no-non-null-assertion
  }

  it('@anthropic-ai/sdk through /v1/messages: the hint in system once, then the SDK raises the freeze', async () => {
    const client = new Anthropic({ apiKey: 'sk-ant-agent-own', baseURL: base, maxRetries: 0, timeout: 20_000, defaultHeaders: { 'X-Wayfinder-Key': CLAUDE_KEY, 'X-Wayfinder-Agent': 'claude-kafka' } });
    const tools = [{ name: 'read_file', input_schema: { type: 'object' as const, properties: { path: { type: 'string' } } } }];
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Read the sales data, compute the totals, write the report.' }];
    let frozen: AnthropicError | undefined;
    for (let i = 0; i < 120 && !frozen; i++) {
      try {
        const answer = await client.messages.create({ model: 'claude-fake', max_tokens: 256, system: SYSTEM, messages, tools });
        const use = answer.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!; // eslint-disable-line @typescript-eslint/no-non-null-assertion
        messages.push({ role: 'assistant', content: answer.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'EACCES: permission denied', is_error: true }] });
      } catch (error) {
        if (!(error instanceof AnthropicError)) throw error;
        frozen = error;
      }
      await new Promise((r) => setTimeout(r, MODEL_LATENCY_MS));
    }
    const hint = await hintOf(CLAUDE_KEY, 'claude-kafka');
    expect(anthropic.requests.filter((r) => r.body.system === `${SYSTEM}\n\n${hint}`)).toHaveLength(1);
    expect(frozen?.status).toBe(423);
    expect(frozen?.error).toMatchObject({ error: { type: 'permission_error', message: expect.stringMatching(FROZEN) } });
    const forwarded = anthropic.requests.length;
    await expect(client.messages.create({ model: 'claude-fake', max_tokens: 256, system: SYSTEM, messages, tools })).rejects.toMatchObject({ status: 423 });
    expect(anthropic.requests.length).toBe(forwarded);
  }, 120_000);

  it('openai responses.create: the hint in instructions once, then the client raises the freeze', async () => {
    const openai = new OpenAI({ apiKey: 'sk-agent-own', baseURL: `${base}/v1`, maxRetries: 0, timeout: 20_000, defaultHeaders: { 'X-Wayfinder-Key': CODEX_KEY, 'X-Wayfinder-Agent': 'codex-kafka' } });
    const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'read_file', strict: false, parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
    const input: ResponseInputItem[] = [{ role: 'user', content: 'Read the sales data, compute the totals, write the report.' }];
    let frozen: OpenAIError | undefined;
    for (let i = 0; i < 120 && !frozen; i++) {
      try {
        const response = await openai.responses.create({ model: 'fake', instructions: SYSTEM, input, tools });
        const fn = response.output.find((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call')!; // eslint-disable-line @typescript-eslint/no-non-null-assertion
        input.push(...(response.output as ResponseInputItem[]), { type: 'function_call_output', call_id: fn.call_id, output: 'Error: EACCES: permission denied' });
      } catch (error) {
        if (!(error instanceof OpenAIError)) throw error;
        frozen = error;
      }
      await new Promise((r) => setTimeout(r, MODEL_LATENCY_MS));
    }
    const hint = await hintOf(CODEX_KEY, 'codex-kafka');
    expect(responses.received.filter((r) => r.body.instructions === `${SYSTEM}\n\n${hint}`)).toHaveLength(1);
    expect(frozen?.status).toBe(423);
    expect(frozen?.message).toMatch(/Wayfinder froze agent codex-kafka: .+ A human must resume it: `npx wayfinder agent resume codex-kafka`/);
    const forwarded = responses.received.length;
    await expect(openai.responses.create({ model: 'fake', instructions: SYSTEM, input, tools })).rejects.toMatchObject({ status: 423 });
    expect(responses.received.length).toBe(forwarded);
  }, 120_000);
});
