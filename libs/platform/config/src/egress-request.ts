/**
 * One outbound HTTP request to a destination a tenant named (the LLM proxy's upstream, an escalation
 * webhook), under the operator's egress policy (egress.ts): refused before sending when the URL is not
 * allowed, and at connect time when its name resolves to a private address the policy does not allow
 * (keep-alive agents per policy whose `lookup` checks every resolved address). The socket's inactivity
 * timeout bounds both the wait for the answer and the gaps in a streamed one.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { egressLookup, egressRefusal, type EgressPolicy } from './egress';

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

export class EgressRequestError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

export interface EgressRequest {
  readonly method?: string;
  readonly headers: Record<string, string | string[]>;
  readonly body?: Buffer;
  readonly timeoutMs: number;
  /** Destroys the request (the client went away). */
  readonly abort?: AbortSignal;
}

/** Sends the request; resolves with the response once its headers came. Errors never quote the URL. */
export function egressRequest(url: URL, request: EgressRequest, egress: EgressPolicy): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    // Policies arrive over the bus: the operator's egress is checked again at send time.
    const refusal = egressRefusal(egress, url.href);
    if (refusal) return reject(new EgressRequestError(`the destination is refused: ${refusal}`, false));
    const https = url.protocol === 'https:';
    const pair = agentsFor(egress);
    const req = (https ? httpsRequest : httpRequest)(url, { method: request.method ?? 'POST', headers: request.headers, agent: https ? pair.https : pair.http, timeout: request.timeoutMs });
    const abort = request.abort;
    const onAbort = () => req.destroy(new EgressRequestError('was abandoned: the client closed the connection', false));
    abort?.addEventListener('abort', onAbort, { once: true });
    req.once('timeout', () => req.destroy(new EgressRequestError(`did not answer within ${request.timeoutMs} ms`, true)));
    req.once('error', (error) => {
      abort?.removeEventListener('abort', onAbort);
      reject(error instanceof EgressRequestError ? error : new EgressRequestError(`could not be reached: ${error.message}`, false));
    });
    req.once('response', (res) => resolve(res));
    if (request.body === undefined) req.end();
    else req.end(request.body);
  });
}
