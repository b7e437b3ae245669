/**
 * One request to the LLM proxy's upstream: node's http(s) client over keep-alive agents (one TCP
 * connection reused per upstream, the proxy's added latency stays a fraction of a millisecond). Only the
 * client headers an LLM API needs go upstream (issue #29: an allow-list, FORWARDED_TO_UPSTREAM — the
 * dialects' credentials, above all `Authorization`/`x-api-key`, which belong to the upstream and are
 * neither read, logged nor stored here; the body's type; the dialects' version and beta headers): never
 * `Cookie`, `Metadata-Flavor`, `X-Forwarded-*`, the proxy's own `X-Wayfinder-*` nor hop-by-hop headers.
 * `Content-Length` is the proxy's (the body may have changed) and `Accept-Encoding` is `identity` (the
 * proxy reads the answer). Back to the client go the upstream's status, body and only its content and
 * API headers (RETURNED_TO_CLIENT: no `Set-Cookie` on the gateway's origin). The socket's inactivity
 * timeout bounds both the wait for the answer and the gaps in a stream.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { egressRequest, EgressRequestError, type EgressPolicy } from '@wayfinder/config';

/**
 * Client headers an upstream of the proxy's dialects (OpenAI, Anthropic, OpenAI-compatible) reads: the
 * credentials (`api-key` is Azure OpenAI's), the body's description, content negotiation, the client's
 * name, and the dialects' own headers (`openai-organization|project|beta`, `anthropic-version|beta`; MCP's
 * Streamable HTTP `Mcp-Session-Id`, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Last-Event-ID`
 * for a stream's resumption).
 */
const FORWARDED_TO_UPSTREAM = new Set(['authorization', 'x-api-key', 'api-key', 'content-type', 'content-encoding', 'accept', 'accept-language', 'user-agent', 'idempotency-key', 'last-event-id']);
const FORWARDED_PREFIXES = ['openai-', 'anthropic-', 'mcp-'];

/** Upstream answer headers the client may see: the body's description and what API clients read (ids, rate limits, retry hints, MCP's session). */
const RETURNED_TO_CLIENT = new Set(['content-type', 'content-language', 'content-disposition', 'cache-control', 'retry-after', 'retry-after-ms', 'x-should-retry', 'request-id', 'x-request-id']);
const RETURNED_PREFIXES = ['openai-', 'anthropic-', 'x-ratelimit-', 'mcp-'];

/** Whether the header (lower case, as node gives it) is on the list or starts with a listed prefix. */
function listed(name: string, names: ReadonlySet<string>, prefixes: readonly string[]): boolean {
  return names.has(name) || prefixes.some((prefix) => name.startsWith(prefix));
}

export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

/** `{base}{path}` (path starting with `/`), the base's query kept unless `search` replaces it. */
export function underBase(base: string, path: string, search?: string): URL {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  if (search !== undefined && search !== '') url.search = search;
  return url;
}

/** The headers to send upstream: the client's on the allow-list, and the proxy's framing. */
export function upstreamHeaders(client: IncomingHttpHeaders, bodyBytes: number | undefined): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(client)) {
    if (value !== undefined && listed(name, FORWARDED_TO_UPSTREAM, FORWARDED_PREFIXES)) headers[name] = value;
  }
  if (bodyBytes !== undefined) headers['content-length'] = String(bodyBytes);
  headers['accept-encoding'] = 'identity';
  return headers;
}

/** The response headers to pass back to the client: the allow-listed ones (framing is the proxy's own). */
export function clientHeaders(upstream: IncomingHttpHeaders): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (value !== undefined && listed(name, RETURNED_TO_CLIENT, RETURNED_PREFIXES)) headers[name] = value;
  }
  return headers;
}

/**
 * Sends the request under the operator's egress (egressRequest of @wayfinder/config: refused at send time
 * and on a private resolved address at connect time); resolves with the upstream's response once its
 * headers came. `abort` (the client went away) destroys the upstream request too.
 */
export async function sendUpstream(url: URL, headers: Record<string, string | string[]>, body: Buffer | undefined, timeoutMs: number, abort: AbortSignal, egress: EgressPolicy, method = 'POST'): Promise<IncomingMessage> {
  try {
    return await egressRequest(url, { method, headers, body, timeoutMs, abort }, egress);
  } catch (error) {
    if (!(error instanceof EgressRequestError)) throw error;
    throw new UpstreamError(`the upstream ${error.message.replace(/^the destination /, '')}`, error.timedOut);
  }
}
