// The MCP door's boundaries: a tenant reaches only the servers the operator configured, by name (an unknown
// name or a URL in its place is a 404 JSON-RPC error naming it, and nothing reaches any server); a
// configured server is still under the operator's egress at connect time (a name resolving to loopback is
// refused); local mode needs no key, as on the other doors; a request without a key, or with a wrong one,
// is refused; one tenant's MCP calls are its own agents' steps, never another tenant's, even under the
// same agent id, and its MCP session is not another tenant's to use.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { StepEvent } from '@wayfinder/contracts';
import type { RunningServices } from '../runtime';
import { startFakeMcpServer, type FakeMcpServer } from './fake-mcp-server.testing';
import { call, eventually, startWithGateway } from './gateway.testing';

const A = 'acme-mcp-bounds-key';
const B = 'globex-mcp-bounds-key';
const INITIALIZE = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };

describe('the MCP door’s boundaries', () => {
  let server: FakeMcpServer;
  let running: RunningServices;
  let base: string;
  const steps: StepEvent[] = [];
  const clients: Client[] = [];

  const post = (path: string, headers: Record<string, string>, body: unknown = INITIALIZE) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });

  async function connect(key: string, agent: string, name = 'files'): Promise<Client> {
    const client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/v1/mcp/${name}`), { requestInit: { headers: { 'X-Wayfinder-Key': key, 'X-Wayfinder-Agent': agent } } }));
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    server = await startFakeMcpServer();
    // No WAYFINDER_EGRESS_ALLOW: the operator's own servers are allowed as configured, nothing else.
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A},globex:${B}`, WAYFINDER_MCP_SERVERS: `files=${server.url}` });
    running.bus.subscribe('wayfinder.steps.v1', async (batch) => void steps.push(...batch.map((d) => d.payload as StepEvent)), { groupId: 'observer' });
    base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await running?.stop();
    await server?.close();
  });

  it('reaches only configured servers, by name', async () => {
    const unknown = await post('/v1/mcp/github', { 'x-wayfinder-key': A });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('no MCP server "github" is configured'), data: { status: 404 } } });
    // A URL where the name goes, encoded or in the query: never a destination.
    const asName = await post(`/v1/mcp/${encodeURIComponent(server.url)}`, { 'x-wayfinder-key': A });
    expect(asName.status).toBe(404);
    expect(((await asName.json()) as { error: { message: string } }).error.message).toContain(server.url);
    expect((await post(`/v1/mcp?url=${encodeURIComponent(server.url)}`, { 'x-wayfinder-key': A })).status).toBe(404);
    expect((await post(`/v1/mcp/files/..%2F..%2Fadmin`, { 'x-wayfinder-key': A })).status).toBe(404);
    for (const method of ['GET', 'DELETE']) expect((await fetch(`${base}/v1/mcp/github`, { method, headers: { 'x-wayfinder-key': A } })).status).toBe(404);
    expect(server.requests).toHaveLength(0);
    // The SDK client sees the refusal naming the server.
    const client = new Client({ name: 'agent', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${base}/v1/mcp/github`), { requestInit: { headers: { 'X-Wayfinder-Key': A } } }))).rejects.toThrow(/github/);
  });

  it('checks a configured server against the operator’s egress at connect time: a name resolving to loopback is refused', async () => {
    // Its own gateway: here the loopback address is written nowhere, so only the private-address rule decides.
    const other = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A}`, WAYFINDER_MCP_SERVERS: `rebound=http://localhost:${server.port}/mcp` });
    try {
      const rebound = await fetch(`${other.gateway!.url}/v1/mcp/rebound`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-wayfinder-key': A }, body: JSON.stringify(INITIALIZE) }); // eslint-disable-line @typescript-eslint/no-non-null-assertion
      expect(rebound.status).toBe(502);
      expect(((await rebound.json()) as { error: { message: string } }).error.message).toMatch(/refused: private address not allowed/);
      expect(server.requests).toHaveLength(0);
    } finally {
      await other.stop();
    }
  });

  it('needs no key in local mode, as the other doors, and files the calls under tenant local', async () => {
    const local = await startWithGateway({ WAYFINDER_MCP_SERVERS: `files=${server.url}` });
    const seen: StepEvent[] = [];
    local.bus.subscribe('wayfinder.steps.v1', async (batch) => void seen.push(...batch.map((d) => d.payload as StepEvent)), { groupId: 'local-observer' });
    const client = new Client({ name: 'agent', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${local.gateway!.url}/v1/mcp/files`), { requestInit: { headers: { 'X-Wayfinder-Agent': 'local-agent' } } })); // eslint-disable-line @typescript-eslint/no-non-null-assertion
      expect(await client.callTool({ name: 'read_file', arguments: { path: '/x' } })).toMatchObject({ isError: true });
      await eventually(async () => seen.some((s) => s.kind === 'observation'), 10_000, 'the local agent’s observation');
      expect(seen.map((s) => [s.tenantId, s.agentId, s.kind])).toEqual([
        ['local', 'local-agent', 'action'],
        ['local', 'local-agent', 'observation'],
      ]);
      // Local mode's doors hold here too: a page of another site is refused.
      const foreign = await fetch(`${local.gateway!.url}/v1/mcp/files`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example' }, body: JSON.stringify(INITIALIZE) }); // eslint-disable-line @typescript-eslint/no-non-null-assertion
      expect(foreign.status).toBe(403);
    } finally {
      await client.close().catch(() => undefined);
      await local.stop();
    }
  });

  it('refuses a request without a key or with a wrong one, before anything reaches the server', async () => {
    const before = server.requests.length;
    const noKey = await post('/v1/mcp/files', {});
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringContaining('X-Wayfinder-Key'), data: { status: 401 } } });
    // The Authorization header is the MCP server's, never Wayfinder's key.
    expect((await post('/v1/mcp/files', { authorization: `Bearer ${A}` })).status).toBe(401);
    expect((await post('/v1/mcp/files', { 'x-wayfinder-key': 'not-a-key' })).status).toBe(401);
    expect((await fetch(`${base}/v1/mcp/files`, { headers: { accept: 'text/event-stream' } })).status).toBe(401);
    expect(server.requests).toHaveLength(before);
  });

  it('records one tenant’s calls under its own agents only', async () => {
    const a = await connect(A, 'shared-name');
    for (let i = 0; i < 3; i++) await a.callTool({ name: 'read_file', arguments: { path: `/a/${i}` } });
    // A's MCP session is not B's to use, even with its id: refused as a session the server does not know.
    const sessionOfA = server.requests.filter((r) => r.rpc === 'tools/call').at(-1)!.headers['mcp-session-id'] as string; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    const ranBefore = server.toolCalls();
    const stolen = await post('/v1/mcp/files', { 'x-wayfinder-key': B, 'x-wayfinder-agent': 'thief', 'mcp-session-id': sessionOfA, 'mcp-protocol-version': '2025-06-18' }, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'read_file', arguments: { path: '/a/0' } } });
    expect(stolen.status).toBe(404);
    expect(((await stolen.json()) as { error: { message: string } }).error.message).toMatch(/^session not found/);
    for (const method of ['GET', 'DELETE']) expect((await fetch(`${base}/v1/mcp/files`, { method, headers: { 'x-wayfinder-key': B, 'mcp-session-id': sessionOfA } })).status).toBe(404);
    expect(server.toolCalls()).toBe(ranBefore);
    expect((await a.callTool({ name: 'read_file', arguments: { path: '/a/3' } })).isError).toBe(true);
    const b = await connect(B, 'globex-only');
    await b.callTool({ name: 'read_file', arguments: { path: '/b' } });
    await eventually(async () => steps.filter((s) => s.kind === 'observation').length >= 5, 10_000, 'both tenants’ observations');
    const acme = steps.filter((s) => s.agentId === 'shared-name');
    expect(acme).toHaveLength(8);
    expect(acme.every((s) => s.tenantId === 'acme')).toBe(true);
    expect(steps.filter((s) => s.tenantId === 'globex').map((s) => s.agentId)).toEqual(['globex-only', 'globex-only']);
    // B's view of the fleet holds its agent only, and A's agent is not B's to read.
    await eventually(async () => ((await call(base, 'GET', '/v1/agents', { key: B })).body.agents as Array<{ agentId: string }>).some((x) => x.agentId === 'globex-only'), 10_000, 'globex’s agent listed');
    const agentsOfB = (await call(base, 'GET', '/v1/agents', { key: B })).body.agents as Array<{ agentId: string }>;
    expect(agentsOfB.map((x) => x.agentId)).toEqual(['globex-only']);
    expect((await call(base, 'GET', '/v1/agents/shared-name/corrections', { key: B })).body.corrections).toEqual([]);
    // A tool call inside a JSON-RPC batch would pass the door unseen: refused, nothing forwarded.
    const postsBeforeBatch = server.requests.filter((r) => r.method === 'POST').length;
    const batch = await post('/v1/mcp/files', { 'x-wayfinder-key': A, 'x-wayfinder-agent': 'batcher' }, [{ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'read_file', arguments: { path: '/x' } } }]);
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ error: { code: -32600, message: expect.stringContaining('batch') } });
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(postsBeforeBatch);
    // A tool call without an agent or a session to name one is refused, naming the header.
    const noAgent = await post('/v1/mcp/files', { 'x-wayfinder-key': A }, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'read_file', arguments: { path: '/x' } } });
    expect(noAgent.status).toBe(400);
    expect(await noAgent.json()).toMatchObject({ error: { code: -32600, data: { status: 400, field: 'X-Wayfinder-Agent' } } });
  }, 60_000);
});
