/**
 * `wayfinder tail` without Kafka (the embedded quick start): follows the gateway's fleet stream
 * (`GET /v1/fleet/events`, Server-Sent Events) and prints the records of one kind as JSON lines, the
 * history's records as the dashboard reads them (not the Kafka events' payloads). A lost connection is
 * resumed with `Last-Event-ID` (records at that ms may come twice: each is printed once, by id); a gateway
 * that refuses, or cannot be reached RECONNECTS times in a row, ends the command with one line.
 */
import type { CommandIo } from '../command';
import { GatewayRefusal, type GatewayTarget } from './gateway-client';

/** Reconnections tried in a row before giving up (1 s apart). */
const RECONNECTS = 5;
/** Ids printed, remembered to skip a resumed stream's repeats (bounded: the oldest are forgotten). */
const REMEMBERED_IDS = 10_000;

export interface GatewayTailRequest {
  readonly target: GatewayTarget;
  /** The history record kind to print: deviation, correction, escalation, would-send. */
  readonly kind: string;
  readonly agent?: string;
  /** `?tenantId=`: the local operator names a tenant; with a key, the gateway checks it is the key's. */
  readonly tenant?: string;
}

interface SseMessage {
  event?: string;
  id?: string;
  data: string;
}

/** Follows until `stop` resolves (Ctrl-C); throws one line's Error when the gateway refuses or is gone. */
export async function tailThroughGateway(request: GatewayTailRequest, io: CommandIo, stop: Promise<void>): Promise<void> {
  const { target } = request;
  const printed = new Set<string>();
  let lastEventId: string | undefined;
  let failures = 0;
  const stopping = new AbortController();
  void stop.then(() => stopping.abort());
  while (!stopping.signal.aborted) {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (target.key) headers.authorization = `Bearer ${target.key}`;
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    let response: Response;
    try {
      response = await fetch(`${target.url}/v1/fleet/events${request.tenant !== undefined ? `?tenantId=${encodeURIComponent(request.tenant)}` : ''}`, { headers, signal: stopping.signal });
    } catch (error) {
      if (stopping.signal.aborted) return;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      if (++failures > RECONNECTS || lastEventId === undefined) throw new Error(`the gateway at ${target.url} does not answer: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
      await pause(1_000, stopping.signal);
      continue;
    }
    if (!response.ok || !response.body) throw await refusalOf(response);
    failures = 0;
    try {
      await readEvents(response.body, (message) => {
        if (message.id !== undefined) lastEventId = message.id;
        if (message.event !== 'record') return;
        const record = JSON.parse(message.data) as { id: string; kind: string; agentId: string };
        if (record.kind !== request.kind || (request.agent !== undefined && record.agentId !== request.agent) || printed.has(record.id)) return;
        printed.add(record.id);
        if (printed.size > REMEMBERED_IDS) printed.delete(printed.values().next().value as string);
        io.stdout.write(JSON.stringify(record) + '\n');
      });
    } catch {
      // The connection dropped mid-stream: resumed below, from the last id.
    }
    if (stopping.signal.aborted) return;
    if (++failures > RECONNECTS) throw new Error(`the gateway at ${target.url} closed the fleet stream ${RECONNECTS} times in a row`);
    await pause(1_000, stopping.signal);
  }
}

async function refusalOf(response: Response): Promise<GatewayRefusal> {
  const text = await response.text().catch(() => '');
  let body: { error?: unknown; field?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Not the gateway's JSON error: the status line says enough.
  }
  return new GatewayRefusal(response.status, typeof body.error === 'string' ? body.error : response.statusText, typeof body.field === 'string' ? body.field : undefined);
}

/** Reads the stream's messages (blocks separated by a blank line) until it ends. */
async function readEvents(body: ReadableStream<Uint8Array>, onMessage: (message: SseMessage) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const message: SseMessage = { data: '' };
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue; // a comment (keep-alive) or an empty line
        const field = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') message.event = value;
        else if (field === 'id') message.id = value;
        else if (field === 'data') message.data += value;
      }
      onMessage(message);
    }
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
