/**
 * Local mode's doors (issue #29): with no keys, the loopback bind is the only credential, and a page in
 * a browser can reach loopback too. So a local-mode request is served only when its `Host` is loopback
 * (DNS rebinding names another host → 421), a present `Origin` is a loopback origin (a cross-site page →
 * 403), and a state-changing request with a body carries a content type the route parses (JSON, NDJSON,
 * protobuf for OTLP; `text/plain`, a form or multipart → 415: a cross-site form cannot send those types
 * without a preflight). A body without any `Content-Type` is accepted (curl-like clients; a browser
 * sending one cross-site also sends its `Origin`). Both local-mode guards run it: the gateway's
 * TenantGuard and the LocalOperatorGuard of the operations surface served alone (serve-operations).
 */
import type { IncomingMessage } from 'node:http';
import { isLoopbackHost } from '@wayfinder/tenancy';
import { httpError } from './http-errors';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The media types the gateway's JSON routes parse: JSON (and `+json`), NDJSON/JSONL (steps), protobuf (OTLP traces). */
const BODY_TYPES = /^application\/(json|[\w.+-]+\+json|x-ndjson|ndjson|jsonl|x-protobuf|protobuf)$/i;

/** `localhost:4318`, `127.0.0.1`, `[::1]:80` → the host name without port or brackets. */
function hostName(authority: string): string {
  const trimmed = authority.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(1, trimmed.indexOf(']') < 0 ? undefined : trimmed.indexOf(']'));
  return trimmed.replace(/:\d*$/, '').replace(/\.$/, '');
}

function loopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(hostName(url.host));
  } catch {
    return false; // `null` (sandboxed frames, file:) or garbage
  }
}

/** Throws the answer for a local-mode request that a page on another site could have sent; passes the rest. */
export function checkLocalModeRequest(req: IncomingMessage, parsesJsonBody: boolean): void {
  const host = req.headers.host;
  if (typeof host === 'string' && !isLoopbackHost(hostName(host))) {
    throw httpError(421, `local mode serves only loopback hosts (localhost, 127.0.0.1, [::1]); Host ${JSON.stringify(host)} is not one`, 'Host');
  }
  const origin = req.headers.origin;
  if (typeof origin === 'string' && !loopbackOrigin(origin)) {
    throw httpError(403, `local mode refuses requests from pages of other sites; Origin ${JSON.stringify(origin)} is not loopback`, 'Origin');
  }
  const method = (req.method ?? 'GET').toUpperCase();
  if (!parsesJsonBody || !STATE_CHANGING.has(method)) return;
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  const type = req.headers['content-type'];
  if (!hasBody || type === undefined) return;
  const media = type.split(';')[0].trim();
  if (!BODY_TYPES.test(media)) {
    throw httpError(415, `the content type ${JSON.stringify(media)} is not accepted: send application/json (or NDJSON for steps, protobuf for OTLP traces)`, 'Content-Type');
  }
}
