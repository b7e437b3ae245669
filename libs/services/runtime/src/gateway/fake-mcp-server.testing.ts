/**
 * An MCP server built with the official TypeScript SDK (`McpServer` over `StreamableHTTPServerTransport`,
 * one transport per session, on a local port), for the MCP door's specs. Its `read_file` tool always
 * answers the same failure; `delete_file` answers "deleted". With `json` the transport answers POSTs with
 * JSON bodies, otherwise with SSE streams (the SDK's default). It records every HTTP request (method,
 * headers, the JSON-RPC method) so a spec can see what reached it.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export const READ_FAILURE = 'EACCES: permission denied';

export interface McpServerRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The JSON-RPC method of a POSTed message (undefined for a response, a batch or no body). */
  rpc?: string;
}

export interface FakeMcpServer {
  /** The server's MCP endpoint (`http://127.0.0.1:PORT/mcp`). */
  readonly url: string;
  readonly port: number;
  readonly requests: McpServerRequest[];
  /** `tools/call` requests the tools ran. */
  toolCalls(): number;
  close(): Promise<void>;
}

/** Both tools take a path. registerTool is called through a plain signature: its generic overloads are too deep for the type checker (TS2589). */
const PATH_INPUT = z.object({ path: z.string() });
type Register = (name: string, config: { description: string; inputSchema: unknown }, cb: () => Promise<{ content: Array<{ type: 'text'; text: string }>; isError?: boolean }>) => void;

function toolServer(): McpServer {
  const server = new McpServer({ name: 'fake-files', version: '1.0.0' });
  const register = server.registerTool.bind(server) as unknown as Register;
  register('read_file', { description: 'Reads a file', inputSchema: PATH_INPUT }, async () => ({ content: [{ type: 'text', text: READ_FAILURE }], isError: true }));
  register('delete_file', { description: 'Deletes a file', inputSchema: PATH_INPUT }, async () => ({ content: [{ type: 'text', text: 'deleted' }] }));
  return server;
}

export async function startFakeMcpServer(options: { json?: boolean } = {}): Promise<FakeMcpServer> {
  const requests: McpServerRequest[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const body = text === '' ? undefined : (JSON.parse(text) as unknown);
        const rpc = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { method?: string }).method : undefined;
        requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, ...(rpc !== undefined && { rpc }) });
        const sessionId = req.headers['mcp-session-id'];
        let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
        if (!transport && req.method === 'POST' && isInitializeRequest(body)) {
          const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            enableJsonResponse: options.json === true,
            onsessioninitialized: (id) => void transports.set(id, created),
          });
          created.onclose = () => {
            if (created.sessionId) transports.delete(created.sessionId);
          };
          await toolServer().connect(created);
          transport = created;
        }
        if (!transport) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
          return;
        }
        await transport.handleRequest(req, res, body);
      })().catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    requests,
    toolCalls: () => requests.filter((r) => r.rpc === 'tools/call').length,
    close: async () => {
      await Promise.all([...transports.values()].map((t) => t.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
