/**
 * One request to the LLM proxy's upstream: node's http(s) client over keep-alive agents (one TCP
 * connection reused per upstream, the proxy's added latency stays a fraction of a millisecond), the
 * client's headers passed on as sent (its `Authorization` above all: it belongs to the upstream and is
 * neither read, logged nor stored here) except the hop-by-hop ones, the proxy's own (`X-Wayfinder-*`),
 * `Host`, `Content-Length` (the body may have changed) and `Accept-Encoding` (the proxy reads the answer).
 * The socket's inactivity timeout bounds both the wait for the answer and the gaps in a stream.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { egressLookup, egressRefusal, type EgressPolicy } from '@wayfinder/config';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length', 'accept-encoding', 'expect']);

/** Keep-alive agents per egress policy, their `lookup` refusing private resolved addresses at connect time. */
const agents = new WeakMap<EgressPolicy, { http: HttpAgent; https: HttpsAgent }>();
function agentsFor(egress: EgressPolicy): { http: HttpAgent; https: HttpsAgent } {
  let pair = agents.get(egress);
  if (!pair) {
    const lookup = egressLookup(egress) as never;
    pair = { http: new HttpAgent({ keepAlive: true, maxSockets: 256, lookup }), https: new HttpsAgent({ keepAlive: true, maxSockets: 256, lookup }) };
    agents.set(egress, pair);
  }
  return pair;
}

export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

/** `{base}/chat/completions` of an OpenAI-compatible base URL (`…/v1`), query kept. */
export function chatCompletionsUrl(base: string): URL {
  return underBase(base, '/chat/completions');
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
 * Sends the request; resolves with the upstream's response once its headers came. `abort` (the client
 * went away) destroys the upstream request too.
 */
export function sendUpstream(url: URL, headers: Record<string, string | string[]>, body: Buffer | undefined, timeoutMs: number, abort: AbortSignal, egress: EgressPolicy, method = 'POST'): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    // Policies also arrive over the bus: the operator's egress is checked again at send time.
    const refusal = egressRefusal(egress, url.href);
    if (refusal) return reject(new UpstreamError(`the upstream is refused: ${refusal}`, false));
    const https = url.protocol === 'https:';
    const pair = agentsFor(egress);
    const req = (https ? httpsRequest : httpRequest)(url, { method, headers, agent: https ? pair.https : pair.http, timeout: timeoutMs });
    const onAbort = () => req.destroy(new UpstreamError('the client closed the connection', false));
    abort.addEventListener('abort', onAbort, { once: true });
    req.once('timeout', () => req.destroy(new UpstreamError(`the upstream did not answer within ${timeoutMs} ms`, true)));
    req.once('error', (error) => {
      abort.removeEventListener('abort', onAbort);
      reject(error instanceof UpstreamError ? error : new UpstreamError(`the upstream could not be reached: ${error.message}`, false));
    });
    req.once('response', (res) => {
      // The request's timeout keeps bounding the answer's body (a stream's silence): it destroys the
      // request, and the response errors. A client gone away still ends it.
      resolve(res);
    });
    if (body === undefined) req.end();
    else req.end(body);
  });
}
