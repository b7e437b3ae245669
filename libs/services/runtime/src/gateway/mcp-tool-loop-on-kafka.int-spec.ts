/**
 * The MCP door in distributed mode on the real Kafka broker and Redis, every service in this process:
 * the official MCP SDK client, through the gateway's /v1/mcp/{server}, calls a tool of an SDK-built MCP
 * server that always answers the same failure. Once the loop is detected one result carries the hint as
 * one more text block, once; after the freeze a call is answered with isError and the reason and never
 * reaches the server; the steps on the topic are the calls and their results, of the key's tenant.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import type { StepEvent } from '@wayfinder/contracts';
import { deleteTestTopics, requireKafka, uniqueTestName, until } from '@wayfinder/testing';
import { startServices, type RunningServices } from '../runtime';
import { startFakeMcpServer, READ_FAILURE, type FakeMcpServer } from './fake-mcp-server.testing';
import { call, REPORT_TASK } from './gateway.testing';

const A = 'acme-mcp-dist-key';
/** The pause between two calls, as a model's turn would make it (see gateway-llm-proxy-loop-corrected.int-spec.ts on why not shorter). */
const MODEL_LATENCY_MS = 400;
type ToolResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };

describe('the MCP door in distributed mode', () => {
  const prefix = `${uniqueTestName('mcp-gw')}.`;
  let brokers: string[];
  let running: RunningServices;
  let observer: KafkaBus;
  let server: FakeMcpServer;
  let client: Client | undefined;
  const steps: StepEvent[] = [];

  beforeAll(async () => {
    brokers = await requireKafka();
    server = await startFakeMcpServer();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 2 });
    observer = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'observer' });
    observer.subscribe('wayfinder.steps.v1', async (batch) => void steps.push(...batch.map((d) => d.payload as StepEvent)), { groupId: `${prefix}observer` });
    await observer.start();
    const config = loadConfig({
      WAYFINDER_MODE: 'distributed',
      WAYFINDER_KAFKA_BROKERS: brokers.join(','),
      WAYFINDER_TOPIC_PREFIX: prefix,
      WAYFINDER_GROUP_PREFIX: `${prefix}wf`,
      WAYFINDER_API_KEYS: `acme:${A}`,
      WAYFINDER_GATEWAY_PORT: '0',
      WAYFINDER_EGRESS_ALLOW: '127.0.0.1',
      WAYFINDER_MCP_SERVERS: `files=${server.url}`,
    });
    running = await startServices(config, { logger: false });
    expect((await call(running.gateway!.url, 'POST', '/v1/tasks', { key: A, body: REPORT_TASK })).status).toBe(201); // eslint-disable-line @typescript-eslint/no-non-null-assertion
  }, 120_000);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await running?.stop();
    await observer?.stop();
    await server?.close();
    if (brokers) await deleteTestTopics(brokers, prefix);
  });

  it('hints the looping caller in one result, once, then answers its calls with isError and the reason', async () => {
    const base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
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
