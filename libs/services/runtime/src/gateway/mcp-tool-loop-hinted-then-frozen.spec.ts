// The MCP door (embedded, every service in process): the official MCP TypeScript SDK's Client over its
// StreamableHTTPClientTransport, pointed at the gateway's /v1/mcp/{server}, calls a tool of an SDK-built
// MCP server that always answers the same failure. Each call and result become an action and an
// observation; once the loop is detected one result carries the hint as one more text block, once; after
// the freeze a call is not forwarded but answered with isError and the reason. The server gets the MCP
// headers (session, protocol version) and never Wayfinder's; a JSON-answering server is served the same
// way; a call that breaks a hard constraint of the task is refused before it runs.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { StepEvent } from '@wayfinder/contracts';
import type { RunningServices } from '../runtime';
import { startFakeMcpServer, READ_FAILURE, type FakeMcpServer } from './fake-mcp-server.testing';
import { call, eventually, REPORT_TASK, startWithGateway } from './gateway.testing';

const A = 'acme-mcp-key';
type ToolResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };

describe('the MCP door', () => {
  let sse: FakeMcpServer;
  let json: FakeMcpServer;
  let running: RunningServices;
  let base: string;
  const steps: StepEvent[] = [];
  const clients: Client[] = [];

  async function connect(server: string, agent: string, task = 'report'): Promise<Client> {
    const client = new Client({ name: 'looping-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/v1/mcp/${server}`), { requestInit: { headers: { 'X-Wayfinder-Key': A, 'X-Wayfinder-Agent': agent, 'X-Wayfinder-Task': task, Authorization: 'Bearer mcp-server-token' } } });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    sse = await startFakeMcpServer();
    json = await startFakeMcpServer({ json: true });
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A}`, WAYFINDER_EGRESS_ALLOW: '127.0.0.1', WAYFINDER_MCP_SERVERS: `files=${sse.url},files-json=${json.url}` });
    running.bus.subscribe('wayfinder.steps.v1', async (batch) => void steps.push(...batch.map((d) => d.payload as StepEvent)), { groupId: 'observer' });
    base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    expect((await call(base, 'POST', '/v1/tasks', { key: A, body: REPORT_TASK })).status).toBe(201);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await running?.stop();
    await sse?.close();
    await json?.close();
  });

  it('hints a looping tool caller in one result, once, then refuses its calls with isError and the reason', async () => {
    const client = await connect('files', 'mcp-looper');
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['delete_file', 'read_file']);
    const results: ToolResult[] = [];
    let refused: ToolResult | undefined;
    for (let i = 0; i < 300 && !refused; i++) {
      const result = (await client.callTool({ name: 'read_file', arguments: { path: '/data/sales.csv' } })) as ToolResult;
      if (result.content[0]?.text?.startsWith('Wayfinder froze')) refused = result;
      else results.push(result);
      await new Promise((r) => setTimeout(r, 100));
    }

    // The hint: one more text block of exactly one result, after the tool's own answer.
    const corrections = (await call(base, 'GET', '/v1/agents/mcp-looper/corrections', { key: A })).body.corrections as Array<{ action: string; hint?: { text: string } }>;
    const hint = corrections.find((c) => c.action === 'hint')!;
    expect(hint).toBeDefined();
    const hinted = results.filter((r) => r.content.some((b) => b.text === `Wayfinder: ${hint.hint!.text}`));
    expect(hinted).toHaveLength(1);
    expect(hinted[0].content[0]).toEqual({ type: 'text', text: READ_FAILURE });
    expect(hinted[0].content).toHaveLength(2);
    expect(results.indexOf(hinted[0])).toBeGreaterThan(0);
    // Every result is the tool's, with at most one piece of guidance after it, each piece once.
    const guided = results.filter((r) => r.content.length > 1).map((r) => r.content[1].text!);
    expect(results.every((r) => r.isError === true && r.content[0].text === READ_FAILURE && r.content.length <= 2)).toBe(true);
    expect(new Set(guided).size).toBe(guided.length);

    // Frozen: the call is answered as a failed tool result saying why, and not forwarded.
    expect(refused).toBeDefined();
    expect(refused).toEqual({ content: [{ type: 'text', text: expect.stringMatching(/^Wayfinder froze agent mcp-looper: .+ A human must resume it/) }], isError: true });
    const ran = sse.toolCalls();
    expect(ran).toBe(results.length);
    const again = (await client.callTool({ name: 'read_file', arguments: { path: '/data/sales.csv' } })) as ToolResult;
    expect(again.isError).toBe(true);
    expect(sse.toolCalls()).toBe(ran);

    // Steps: each call an action, each result a failed observation of it, in seq order.
    await eventually(async () => steps.filter((s) => s.agentId === 'mcp-looper' && s.kind === 'observation').length >= ran, 10_000, `the ${ran} observations`);
    const mine = steps.filter((s) => s.agentId === 'mcp-looper').sort((x, y) => x.seq - y.seq);
    expect(mine).toHaveLength(2 * ran);
    expect(mine.slice(0, 4).map((s) => s.kind)).toEqual(['action', 'observation', 'action', 'observation']);
    expect(mine.map((s) => s.seq - mine[0].seq)).toEqual(mine.map((_s, i) => i));
    expect(new Set(mine.map((s) => s.eventId)).size).toBe(mine.length);
    expect(mine[0]).toMatchObject({ tenantId: 'acme', taskId: 'report', action: { tool: 'read_file', args: { path: '/data/sales.csv' } } });
    expect(mine[1]).toMatchObject({ observation: { tool: 'read_file', ok: false, error: READ_FAILURE, callId: (mine[0] as Extract<StepEvent, { kind: 'action' }>).action.callId } });

    // Headers: the MCP ones and the agent's Authorization reach the server, Wayfinder's never.
    const posts = sse.requests.filter((r) => r.method === 'POST' && r.rpc !== 'initialize');
    expect(posts.length).toBeGreaterThan(0);
    for (const r of posts) {
      expect(r.headers['mcp-session-id']).toEqual(expect.any(String));
      expect(r.headers['mcp-protocol-version']).toEqual(expect.any(String));
      expect(r.headers.authorization).toBe('Bearer mcp-server-token');
    }
    expect(sse.requests.some((r) => Object.keys(r.headers).some((h) => h.startsWith('x-wayfinder')))).toBe(false);
    // The server's stream (GET) passes through too.
    expect(sse.requests.some((r) => r.method === 'GET')).toBe(true);
  }, 120_000);

  it('serves a server that answers in JSON the same way, and refuses a call breaking a hard constraint before it runs', async () => {
    expect((await call(base, 'POST', '/v1/tasks', { key: A, body: { taskId: 'cleanup', goal: 'Tidy the report folder. Never call a delete API.' } })).status).toBe(201);
    const client = await connect('files-json', 'tidy-bot', 'cleanup');
    const read = (await client.callTool({ name: 'read_file', arguments: { path: 'reports/old.md' } })) as ToolResult;
    expect(read).toEqual({ content: [{ type: 'text', text: READ_FAILURE }], isError: true });
    let refused: ToolResult | undefined;
    await eventually(async () => {
      refused = (await client.callTool({ name: 'delete_file', arguments: { path: 'reports/old.md' } })) as ToolResult;
      return refused.isError === true;
    }, 10_000, 'the hard stop once the map is built');
    expect(refused!.content[0].text).toMatch(/^Wayfinder refused this call: this call breaks hard constraint 1 .*"delete_file" is a delete tool/);
    // Until the map was there, delete_file could run; from then on it is refused without reaching the server.
    const ran = json.toolCalls();
    await client.callTool({ name: 'delete_file', arguments: { path: 'reports/old.md' } });
    expect(json.toolCalls()).toBe(ran);
    await eventually(async () => steps.some((s) => s.agentId === 'tidy-bot' && s.kind === 'observation'), 10_000, 'the JSON answer’s observation');
    expect(steps.find((s) => s.agentId === 'tidy-bot' && s.kind === 'observation')).toMatchObject({ taskId: 'cleanup', observation: { tool: 'read_file', ok: false, error: READ_FAILURE } });
  }, 60_000);
});
