// OpenAI's Responses API through the LLM proxy (embedded), driven by the real `openai` client's
// `responses.create` against a fake upstream that keeps asking for the same function call, the agent
// sending back the whole input (its items, the response's output items, a failing function_call_output)
// as Codex CLI does. Function calls and their outputs become actions and observations with dense seqs,
// each once; once the loop is detected the request reaching the upstream carries the hint appended to
// its `instructions`, once; after the freeze the client raises the 423 error saying why. A streamed
// response reaches the client whole and is assembled into the same steps.
import OpenAI, { APIError } from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import type { StepEvent } from '@wayfinder/contracts';
import type { RunningServices } from '../runtime';
import { startFakeResponsesUpstream, RESPONSES_TEXT as TEXT, type FakeResponsesUpstream } from './fake-responses-upstream.testing';
import { call, eventually, REPORT_TASK, startWithGateway } from './gateway.testing';

const A = 'acme-responses-key';
const INSTRUCTIONS = 'You are the report agent. Use the tools.';
const TOOLS: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'read_file', strict: false, parameters: { type: 'object', properties: { path: { type: 'string' } } } }];


describe('OpenAI responses through the proxy', () => {
  let upstream: FakeResponsesUpstream;
  let running: RunningServices;
  let base: string;
  const steps: StepEvent[] = [];

  beforeAll(async () => {
    upstream = await startFakeResponsesUpstream();
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

  const client = (agent: string) => new OpenAI({ apiKey: 'sk-agent-own', baseURL: `${base}/v1`, maxRetries: 0, timeout: 20_000, defaultHeaders: { 'X-Wayfinder-Key': A, 'X-Wayfinder-Agent': agent, 'X-Wayfinder-Task': 'report' } });

  it('makes steps of function calls and outputs, hints in instructions once, and the client raises the freeze', async () => {
    const openai = client('codex-looper');
    const input: ResponseInputItem[] = [{ role: 'user', content: 'Read the sales data, compute the totals, write the report.' }];
    const first = upstream.received.length;
    let frozen: APIError | undefined;
    for (let i = 0; i < 300 && !frozen; i++) {
      try {
        const response = await openai.responses.create({ model: 'fake', instructions: INSTRUCTIONS, input, tools: TOOLS });
        expect(response.output_text).toBe(TEXT);
        const fn = response.output.find((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call')!;
        input.push(...(response.output as ResponseInputItem[]));
        input.push({ type: 'function_call_output', call_id: fn.call_id, output: 'Error: EACCES: permission denied' });
      } catch (error) {
        if (!(error instanceof APIError)) throw error;
        frozen = error;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const mine = upstream.received.slice(first);
    const corrections = (await call(base, 'GET', '/v1/agents/codex-looper/corrections', { key: A })).body.corrections as Array<{ action: string; hint?: { text: string } }>;
    const hint = corrections.find((c) => c.action === 'hint')!;
    expect(hint).toBeDefined();
    const hinted = mine.filter((r) => r.body.instructions === `${INSTRUCTIONS}\n\n${hint.hint!.text}`);
    expect(hinted).toHaveLength(1);
    const guided = mine.map((r) => r.body.instructions).filter((text) => text !== INSTRUCTIONS);
    expect(new Set(guided).size).toBe(guided.length);
    expect(mine.every((r) => r.authorization === 'Bearer sk-agent-own')).toBe(true);

    expect(frozen).toBeDefined();
    expect(frozen!.status).toBe(423);
    expect(frozen!.message).toMatch(/froze agent codex-looper/);
    expect((frozen!.error as { code?: string }).code).toBe('agent_frozen');

    const turns = mine.length;
    await eventually(async () => steps.filter((s) => s.agentId === 'codex-looper' && s.kind === 'observation').length >= turns, 10_000, `the ${turns} observations`);
    const stepsOf = steps.filter((s) => s.agentId === 'codex-looper').sort((x, y) => x.seq - y.seq);
    expect(new Set(stepsOf.map((s) => s.eventId)).size).toBe(stepsOf.length);
    expect(stepsOf.slice(0, 6).map((s) => [s.seq, s.kind])).toEqual([
      [0, 'message'],
      [1, 'action'],
      [2, 'observation'],
      [3, 'message'],
      [4, 'action'],
      [5, 'observation'],
    ]);
    expect(stepsOf[0]).toMatchObject({ message: { text: TEXT }, usage: { inputTokens: 20, outputTokens: 5 } });
    expect(stepsOf[1]).toMatchObject({ action: { tool: 'read_file', args: { path: '/data/sales.csv' }, callId: expect.stringMatching(/^call_/) } });
    expect(stepsOf[2]).toMatchObject({ observation: { tool: 'read_file', ok: false, callId: (stepsOf[1] as { action: { callId: string } }).action.callId } });
  }, 120_000);

  it('passes a streamed response through whole and assembles it into steps', async () => {
    const openai = client('codex-streamer');
    const stream = await openai.responses.create({ model: 'fake', instructions: INSTRUCTIONS, input: 'Stream the report.', tools: TOOLS, stream: true });
    const types: string[] = [];
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(types).toEqual(expect.arrayContaining(['response.created', 'response.output_text.delta', 'response.function_call_arguments.delta', 'response.output_item.done', 'response.completed']));
    expect(completed?.output).toHaveLength(2);
    await eventually(async () => steps.filter((s) => s.agentId === 'codex-streamer').length >= 2, 10_000, 'the streamer’s message and action');
    const mine = steps.filter((s) => s.agentId === 'codex-streamer').sort((x, y) => x.seq - y.seq);
    expect(mine.map((s) => [s.seq, s.kind])).toEqual([
      [0, 'message'],
      [1, 'action'],
    ]);
    expect(mine[0]).toMatchObject({ message: { text: TEXT }, usage: { inputTokens: 20, outputTokens: 5 } });
    expect(mine[1]).toMatchObject({ action: { tool: 'read_file', args: { path: '/data/sales.csv' } } });
  });
});
