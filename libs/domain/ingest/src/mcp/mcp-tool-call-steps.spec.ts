// MCP tools/call → an action, its response → an observation (text blocks, isError and JSON-RPC errors are
// failures); a refused call is a tool result with isError; guidance is one more text block of a result.
import { isResponseTo, mcpActionStep, mcpObservationStep, readMcpToolCall, refusedToolResult, withGuidanceBlock } from './mcp-tool-call';

const identity = { tenantId: 'acme', agentId: 'coder', taskId: 'report', runId: 'sess-9' };
const request = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'read_file', arguments: { path: '/data/sales.csv' }, _meta: { progressToken: 3 } } };

describe('MCP tools/call as steps', () => {
  it('reads a tools/call request and leaves every other message alone', () => {
    expect(readMcpToolCall(request)).toEqual({ id: 7, name: 'read_file', arguments: { path: '/data/sales.csv' } });
    expect(readMcpToolCall({ ...request, params: { name: 'list' } })).toEqual({ id: 7, name: 'list', arguments: {} });
    expect(readMcpToolCall({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBeUndefined();
    expect(readMcpToolCall({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'x' } })).toBeUndefined(); // a notification has no answer to carry
    expect(readMcpToolCall({ ...request, params: { arguments: {} } })).toBeUndefined();
    expect(readMcpToolCall({ ...request, params: { name: 'x', arguments: 'ls' } })).toBeUndefined();
    expect(readMcpToolCall([request])).toBeUndefined();
  });

  it('makes the action and the observation of a call, sharing a callId', () => {
    const call = readMcpToolCall(request)!;
    const action = mcpActionStep(call, identity, 41, Date.UTC(2026, 0, 1));
    expect(action).toMatchObject({ schema: 'wayfinder.step.v1', eventId: 'mcp:sess-9:41', tenantId: 'acme', agentId: 'coder', taskId: 'report', runId: 'sess-9', seq: 41, ts: '2026-01-01T00:00:00.000Z', kind: 'action', action: { tool: 'read_file', args: { path: '/data/sales.csv' }, callId: 'mcp-7' } });
    const ok = mcpObservationStep(call, { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'a,b' }, { type: 'image', data: '…', mimeType: 'image/png' }] } }, identity, 42, 0);
    expect(ok).toMatchObject({ eventId: 'mcp:sess-9:42', kind: 'observation', observation: { tool: 'read_file', callId: 'mcp-7', ok: true, content: 'a,b\n[image]' } });
    const failed = mcpObservationStep(call, { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'EACCES' }], isError: true } }, identity, 43, 0);
    expect(failed).toMatchObject({ observation: { ok: false, error: 'EACCES' } });
    const rpcError = mcpObservationStep(call, { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Unknown tool: read_file' } }, identity, 44, 0);
    expect(rpcError).toMatchObject({ observation: { ok: false, error: 'Unknown tool: read_file' } });
    const structured = mcpObservationStep(call, { jsonrpc: '2.0', id: 7, result: { content: [], structuredContent: { rows: 3 } } }, identity, 45, 0);
    expect(structured).toMatchObject({ observation: { ok: true, content: { rows: 3 } } });
  });

  it('recognizes the response to a request among the messages of a stream', () => {
    expect(isResponseTo({ jsonrpc: '2.0', id: 7, result: {} }, 7)).toBe(true);
    expect(isResponseTo({ jsonrpc: '2.0', id: '7', result: {} }, 7)).toBe(false);
    expect(isResponseTo({ jsonrpc: '2.0', method: 'notifications/progress', params: {} }, 7)).toBe(false);
    expect(isResponseTo({ jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: {} }, 7)).toBe(false);
  });

  it('answers a refused call as a failed tool result, and adds guidance as one text block', () => {
    expect(refusedToolResult('a1', 'frozen')).toEqual({ jsonrpc: '2.0', id: 'a1', result: { content: [{ type: 'text', text: 'frozen' }], isError: true } });
    const response = { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'a,b' }], structuredContent: { x: 1 } } };
    expect(withGuidanceBlock(response, 'Wayfinder: stop')).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'a,b' }, { type: 'text', text: 'Wayfinder: stop' }], structuredContent: { x: 1 } } });
    expect(response.result.content).toHaveLength(1);
    expect(withGuidanceBlock({ jsonrpc: '2.0', id: 7, error: { code: 1, message: 'no' } }, 'hint')).toBeUndefined();
  });
});
