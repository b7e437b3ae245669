// The MCP door with the 2026-07-28 revision of Streamable HTTP: no initialize, no Mcp-Session-Id; every
// POST carries MCP-Protocol-Version, Mcp-Method and Mcp-Name, and the server rejects a request whose
// headers disagree with its body. A stateless server written to that revision (its tools/call answered
// as an SSE stream: a progress notification, then the result) behind the door: the routing headers and
// the body reach it as the agent sent them, the progress event passes untouched, the agent named by
// X-Wayfinder-Agent alone gets its hint as one more text block of one result, and after the freeze its
// call is answered with isError and the reason, never forwarded.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StepEvent } from '@wayfinder/contracts';
import type { RunningServices } from '../runtime';
import { call, eventually, REPORT_TASK, startWithGateway } from './gateway.testing';

const A = 'acme-mcp-2026-key';
const VERSION = '2026-07-28';
const FAILURE = 'ENOENT: no such file';

interface Seen {
  headers: IncomingHttpHeaders;
  body: { method: string; id?: number; params?: { name?: string; arguments?: unknown; _meta?: unknown } };
}

/** A stateless 2026-07-28 server: checks the routing headers against the body, answers tools/call over SSE. */
async function startStatelessServer(): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Seen['body'];
      seen.push({ headers: req.headers, body });
      const reject = (message: string) => res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id ?? null, error: { code: -32600, message } }));
      if (req.headers['mcp-protocol-version'] !== VERSION) return reject('unsupported protocol version');
      if (req.headers['mcp-method'] !== body.method) return reject('Mcp-Method disagrees with the body');
      if (body.method === 'tools/call' && req.headers['mcp-name'] !== body.params?.name) return reject('Mcp-Name disagrees with the body');
      if (body.method !== 'tools/call') return reject('only tools/call here');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: body.id, progress: 1, total: 2 } })}\n\n`);
      res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { content: [{ type: 'text', text: FAILURE }], isError: true } })}\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The SSE answer's JSON-RPC messages, in order. */
function messagesOf(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n\n')
    .map((event) => event.split('\n').find((l) => l.startsWith('data: ')))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

describe('the MCP door with the stateless 2026-07-28 revision', () => {
  let upstream: Awaited<ReturnType<typeof startStatelessServer>>;
  let running: RunningServices;
  let base: string;
  const steps: StepEvent[] = [];

  beforeAll(async () => {
    upstream = await startStatelessServer();
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A}`, WAYFINDER_EGRESS_ALLOW: '127.0.0.1', WAYFINDER_MCP_SERVERS: `files=${upstream.url}` });
    running.bus.subscribe('wayfinder.steps.v1', async (batch) => void steps.push(...batch.map((d) => d.payload as StepEvent)), { groupId: 'observer' });
    base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    expect((await call(base, 'POST', '/v1/tasks', { key: A, body: REPORT_TASK })).status).toBe(201);
  });
  afterAll(async () => {
    await running?.stop();
    await upstream?.close();
  });

  it('passes the routing headers and the body through, hints once in a result, then refuses after the freeze', async () => {
    const results: Array<Array<Record<string, unknown>>> = [];
    let refused: Record<string, unknown> | undefined;
    for (let id = 1; id <= 300 && !refused; id++) {
      const body = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'open_file', arguments: { path: 'notes.md' }, _meta: { protocolVersion: VERSION, clientInfo: { name: 'agent', version: '1' } } } };
      const answer = await fetch(`${base}/v1/mcp/files`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'open_file', 'x-wayfinder-key': A, 'x-wayfinder-agent': 'stateless-agent', 'x-wayfinder-task': 'report' },
        body: JSON.stringify(body),
      });
      expect(answer.status).toBe(200);
      if (/json/.test(answer.headers.get('content-type') ?? '')) refused = (await answer.json()) as Record<string, unknown>;
      else results.push(messagesOf(await answer.text()));
      await new Promise((r) => setTimeout(r, 100));
    }

    // Every forwarded request reached the server as sent: its headers agreeing with its body, the body unchanged.
    expect(upstream.seen).toHaveLength(results.length);
    upstream.seen.forEach((s, i) => {
      expect(s.headers).toMatchObject({ 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'open_file' });
      expect(s.body).toEqual({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'open_file', arguments: { path: 'notes.md' }, _meta: { protocolVersion: VERSION, clientInfo: { name: 'agent', version: '1' } } } });
      expect(s.headers['mcp-session-id']).toBeUndefined();
    });
    // Each answer: the progress notification untouched, then the result, one of them with the hint after the tool's text.
    for (const [i, messages] of results.entries()) {
      expect(messages[0]).toEqual({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: i + 1, progress: 1, total: 2 } });
      expect(messages[1]).toMatchObject({ jsonrpc: '2.0', id: i + 1, result: { isError: true, content: expect.arrayContaining([{ type: 'text', text: FAILURE }]) } });
    }
    const corrections = (await call(base, 'GET', '/v1/agents/stateless-agent/corrections', { key: A })).body.corrections as Array<{ action: string; hint?: { text: string } }>;
    const hint = corrections.find((c) => c.action === 'hint')!;
    expect(hint).toBeDefined();
    const hinted = results.filter((m) => JSON.stringify(m[1]).includes(JSON.stringify(`Wayfinder: ${hint.hint!.text}`)));
    expect(hinted).toHaveLength(1);
    expect((hinted[0][1].result as { content: unknown[] }).content).toEqual([{ type: 'text', text: FAILURE }, { type: 'text', text: `Wayfinder: ${hint.hint!.text}` }]);

    // The freeze: a tool result with isError and the reason, for the request's id, and nothing forwarded.
    expect(refused).toEqual({ jsonrpc: '2.0', id: results.length + 1, result: { content: [{ type: 'text', text: expect.stringMatching(/^Wayfinder froze agent stateless-agent/) }], isError: true } });

    // Steps: the agent of the header, its run the agent (no session to name one), the arguments without _meta.
    await eventually(async () => steps.filter((s) => s.kind === 'observation').length >= results.length, 10_000, 'the observations');
    expect(steps.find((s) => s.kind === 'action')).toMatchObject({ agentId: 'stateless-agent', runId: 'stateless-agent', action: { tool: 'open_file', args: { path: 'notes.md' } } });
    expect(steps.find((s) => s.kind === 'observation')).toMatchObject({ observation: { tool: 'open_file', ok: false, error: FAILURE } });
  }, 120_000);
});
