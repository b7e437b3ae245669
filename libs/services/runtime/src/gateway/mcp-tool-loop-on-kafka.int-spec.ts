/**
 * The MCP door in distributed mode on the real Kafka broker and Redis, every service in this process:
 * the official MCP SDK client, through the gateway's /v1/mcp/{server}, calls a tool of an SDK-built MCP
 * server that always answers the same failure. Once the loop is detected one result carries the hint as
 * one more text block, once; after the freeze a call is answered with isError and the reason and never
 * reaches the server; the steps on the topic are the calls and their results, of the key's tenant.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { StepEvent } from '@wayfinder/contracts';
import { until } from '@wayfinder/testing';
import { startFakeMcpServer, READ_FAILURE, type FakeMcpServer } from './fake-mcp-server.testing';
import { call, REPORT_TASK, startGatewayOnKafka, type GatewayOnKafka } from './gateway.testing';

const A = 'acme-mcp-dist-key';
/** The pause between two calls, as a model's turn would make it (see gateway-llm-proxy-loop-corrected.int-spec.ts on why not shorter). */
const MODEL_LATENCY_MS = 400;
type ToolResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };

describe('the MCP door in distributed mode', () => {
  let kafka: GatewayOnKafka;
  let server: FakeMcpServer;
  let client: Client | undefined;
  let steps: StepEvent[];

  beforeAll(async () => {
    server = await startFakeMcpServer();
    kafka = await startGatewayOnKafka('mcp-gw', { WAYFINDER_API_KEYS: `acme:${A}`, WAYFINDER_EGRESS_ALLOW: '127.0.0.1', WAYFINDER_MCP_SERVERS: `files=${server.url}` });
    steps = kafka.steps;
    expect((await call(kafka.base, 'POST', '/v1/tasks', { key: A, body: REPORT_TASK })).status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await kafka?.stop();
    await server?.close();
  });

  it('hints the looping caller in one result, once, then answers its calls with isError and the reason', async () => {
    const base = kafka.base;
    client = new Client({ name: 'looping-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/v1/mcp/files`), { requestInit: { headers: { 'X-Wayfinder-Key': A, 'X-Wayfinder-Agent': 'mcp-looper', 'X-Wayfinder-Task': 'report' } } }));
    const results: ToolResult[] = [];
    let refused: ToolResult | undefined;
    for (let i = 0; i < 300 && !refused; i++) {
      const result = (await client.callTool({ name: 'read_file', arguments: { path: '/data/sales.csv' } })) as ToolResult;
      if (result.content[0]?.text?.startsWith('Wayfinder froze')) refused = result;
      else results.push(result);
      await new Promise((r) => setTimeout(r, MODEL_LATENCY_MS));
    }

    const corrections = (await call(base, 'GET', '/v1/agents/mcp-looper/corrections', { key: A })).body.corrections as Array<{ action: string; hint?: { text: string } }>;
    const hint = corrections.find((c) => c.action === 'hint')!;
    expect(hint).toBeDefined();
    const hinted = results.filter((r) => r.content.some((b) => b.text === `Wayfinder: ${hint.hint!.text}`));
    expect(hinted).toHaveLength(1);
    expect(hinted[0].content).toEqual([{ type: 'text', text: READ_FAILURE }, { type: 'text', text: `Wayfinder: ${hint.hint!.text}` }]);

    expect(refused).toEqual({ content: [{ type: 'text', text: expect.stringMatching(/^Wayfinder froze agent mcp-looper: .+ A human must resume it/) }], isError: true });
    const ran = server.toolCalls();
    expect(ran).toBe(results.length);
    expect(((await client.callTool({ name: 'read_file', arguments: { path: '/data/sales.csv' } })) as ToolResult).isError).toBe(true);
    expect(server.toolCalls()).toBe(ran);

    await until(() => steps.filter((s) => s.agentId === 'mcp-looper' && s.kind === 'observation').length >= ran, 20_000, `the ${ran} observations on the topic`);
    const mine = steps.filter((s) => s.agentId === 'mcp-looper');
    expect(mine.every((s) => s.tenantId === 'acme' && s.taskId === 'report')).toBe(true);
    expect(mine.filter((s) => s.kind === 'action')).toHaveLength(ran);
    expect(mine.find((s) => s.kind === 'observation')).toMatchObject({ observation: { tool: 'read_file', ok: false, error: READ_FAILURE } });
  }, 120_000);
});
