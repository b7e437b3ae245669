/**
 * The operators' commands speak to the gateway's HTTP API with a key (DESIGN §13): `--gateway URL` (env
 * WAYFINDER_GATEWAY_URL, default http://127.0.0.1:7070) and `--key KEY` (env WAYFINDER_KEY; none in local
 * mode). The key decides the tenant, on the gateway; nothing here names one. A refusal (4xx/5xx) becomes
 * one line with the status, the gateway's reason and the field it names.
 */
import { GATEWAY_DEFAULT_PORT } from '@wayfinder/config';
import { UsageError } from '../command';

export { GATEWAY_USAGE } from './gateway-usage';

export interface GatewayTarget {
  readonly url: string;
  readonly key?: string;
}

/** The options every gateway command takes (parseCommandArgs). */
export const GATEWAY_OPTIONS = { gateway: { type: 'string' }, key: { type: 'string' } } as const;


export function gatewayTarget(values: { gateway?: string; key?: string }, env: NodeJS.ProcessEnv = process.env): GatewayTarget {
  const raw = values.gateway ?? env['WAYFINDER_GATEWAY_URL'] ?? `http://127.0.0.1:${GATEWAY_DEFAULT_PORT}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--gateway (or WAYFINDER_GATEWAY_URL) must be an http(s) URL, got '${raw}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--gateway (or WAYFINDER_GATEWAY_URL) must be an http(s) URL, got '${raw}'`);
  const key = values.key ?? env['WAYFINDER_KEY'];
  if (key !== undefined && (key === '' || /\s/.test(key))) throw new UsageError('--key (or WAYFINDER_KEY) must be one key without whitespace');
  return { url: raw.replace(/\/+$/, ''), ...(key !== undefined && { key }) };
}

/** The gateway answered with an error status: `status`, and its `{error, field}` body. */
export class GatewayRefusal extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    readonly field?: string,
  ) {
    super(`the gateway refused (${status}): ${reason}${field !== undefined && !reason.includes(field) ? ` [${field}]` : ''}`);
  }
}

/** One request; resolves with the parsed JSON body of a 2xx answer, rejects with GatewayRefusal otherwise. */
export async function callGateway<T = unknown>(target: GatewayTarget, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (target.key) headers['authorization'] = `Bearer ${target.key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${target.url}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }), signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`the gateway at ${target.url} does not answer: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const answer = (parsed ?? {}) as { error?: unknown; field?: unknown };
    const reason = typeof answer.error === 'string' ? answer.error : text.split('\n')[0].slice(0, 200) || response.statusText;
    throw new GatewayRefusal(response.status, reason, typeof answer.field === 'string' ? answer.field : undefined);
  }
  return parsed as T;
}
