// OpenAI's Responses API through the LLM proxy (embedded), driven by the real `openai` client's
// `responses.create` against a fake upstream that keeps asking for the same function call, the agent
// sending back the whole input (its items, the response's output items, a failing function_call_output)
// as Codex CLI does. Function calls and their outputs become actions and observations with dense seqs,
// each once; once the loop is detected the request reaching the upstream carries the hint appended to
// its `instructions`, once; after the freeze the client raises the 423 error saying why. A streamed
// response reaches the client whole and is assembled into the same steps.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI, { APIError } from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import type { StepEvent } from '@wayfinder/contracts';
import type { RunningServices } from '../runtime';
import { call, eventually, REPORT_TASK, startWithGateway } from './gateway.testing';

const A = 'acme-responses-key';
const INSTRUCTIONS = 'You are the report agent. Use the tools.';
const TEXT = 'Reading the sales data.';
const ARGS = JSON.stringify({ path: '/data/sales.csv' });
const TOOLS: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'read_file', strict: false, parameters: { type: 'object', properties: { path: { type: 'string' } } } }];

interface Received {
  authorization?: string;
  body: { instructions?: string; input: unknown; stream?: boolean };
}

describe('OpenAI responses through the proxy', () => {
  const received: Received[] = [];
  let server: Server;
  let running: RunningServices;
  let base: string;
  const steps: StepEvent[] = [];

  beforeAll(async () => {
    let n = 0;
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received['body'];
        received.push({ authorization: req.headers.authorization, body });
        n++;
        const message = { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: TEXT, annotations: [] }] };
        const fn = { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: 'read_file', arguments: ARGS, status: 'completed' };
        const response = { id: `resp_${n}`, object: 'response', created_at: 1, status: 'completed', model: 'fake', output: [message, fn], usage: { input_tokens: 20, output_tokens: 5, total_tokens: 25 } };
        if (!body.stream) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(response));
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        let seq = 0;
        const event = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
        event('response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } });
        event('response.output_item.added', { output_index: 0, item: { ...message, status: 'in_progress', content: [] } });
        event('response.output_text.delta', { item_id: message.id, output_index: 0, content_index: 0, delta: TEXT.slice(0, 7) });
        event('response.output_text.delta', { item_id: message.id, output_index: 0, content_index: 0, delta: TEXT.slice(7) });
        event('response.output_item.done', { output_index: 0, item: message });
        event('response.output_item.added', { output_index: 1, item: { ...fn, arguments: '', status: 'in_progress' } });
        event('response.function_call_arguments.delta', { item_id: fn.id, output_index: 1, delta: ARGS.slice(0, 5) });
        event('response.function_call_arguments.delta', { item_id: fn.id, output_index: 1, delta: ARGS.slice(5) });
        event('response.function_call_arguments.done', { item_id: fn.id, output_index: 1, arguments: ARGS });
        event('response.output_item.done', { output_index: 1, item: fn });
        event('response.completed', { response });
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A}`, WAYFINDER_EGRESS_ALLOW: '127.0.0.1' });
    running.bus.subscribe('wayfinder.steps.v1', async (batch) => void steps.push(...batch.map((d) => d.payload as StepEvent)), { groupId: 'observer' });
    base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    const upstream = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    expect((await call(base, 'PUT', '/v1/policy', { key: A, body: { policy: {}, proxy: { upstream } } })).status).toBe(200);
    expect((await call(base, 'POST', '/v1/tasks', { key: A, body: REPORT_TASK })).status).toBe(201);
  });
  afterAll(async () => {
    await running?.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const client = (agent: string) => new OpenAI({ apiKey: 'sk-agent-own', baseURL: `${base}/v1`, maxRetries: 0, timeout: 20_000, defaultHeaders: { 'X-Wayfinder-Key': A, 'X-Wayfinder-Agent': agent, 'X-Wayfinder-Task': 'report' } });

  it('makes steps of function calls and outputs, hints in instructions once, and the client raises the freeze', async () => {
    const openai = client('codex-looper');
    const input: ResponseInputItem[] = [{ role: 'user', content: 'Read the sales data, compute the totals, write the report.' }];
    const first = received.length;
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
    const mine = received.slice(first);
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
