/**
 * One request to the LLM proxy's upstream: node's http(s) client over keep-alive agents (one TCP
 * connection reused per upstream, the proxy's added latency stays a fraction of a millisecond), the
 * client's headers passed on as sent (its `Authorization` above all: it belongs to the upstream and is
 * neither read, logged nor stored here) except the hop-by-hop ones, the proxy's own (`X-Wayfinder-*`),
 * `Host`, `Content-Length` (the body may have changed) and `Accept-Encoding` (the proxy reads the answer).
 * The socket's inactivity timeout bounds both the wait for the answer and the gaps in a stream.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { egressRequest, EgressRequestError, type EgressPolicy } from '@wayfinder/config';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length', 'accept-encoding', 'expect']);

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

/** The headers to send upstream: the client's, minus the hop-by-hop and the proxy's own. */
export function upstreamHeaders(client: IncomingHttpHeaders, bodyBytes: number | undefined): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(client)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name.startsWith('x-wayfinder-')) continue;
    headers[name] = value;
  }
  if (bodyBytes !== undefined) headers['content-length'] = String(bodyBytes);
  headers['accept-encoding'] = 'identity';
  return headers;
}

/** The response headers to pass back to the client (framing is the proxy's own). */
export function clientHeaders(upstream: IncomingHttpHeaders): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'content-encoding') continue;
    headers[name] = value;
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
