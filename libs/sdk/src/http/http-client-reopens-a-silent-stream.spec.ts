/**
 * A stream that goes silent (a connection that died without closing: no data, no keep-alive) is
 * reopened after `idleTimeoutMs`, resuming with Last-Event-ID; an unreadable correction on the stream is
 * reported and skipped instead of being read again on every reconnect.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Correction } from '@wayfinder/contracts';
import { connectHttp } from '../connect';
import { hintFor } from '../testing/contract-gateway.testing';

describe('HTTP client on a silent stream', () => {
  it('reopens it after the idle timeout and skips an unreadable correction', async () => {
    const opened: Array<string | undefined> = [];
    const streams: ServerResponse[] = [];
    const server = createServer((req, res) => {
      opened.push(req.headers['last-event-id'] as string | undefined);
      streams.push(res);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (opened.length === 1) {
        res.write(`id: 1\nevent: correction\ndata: ${JSON.stringify(hintFor('quiet', 1))}\n\n`);
        res.write('id: 2\nevent: correction\ndata: {"not":"a correction"}\n\n');
        // …and then silence, the connection left open.
      } else {
        res.write(`id: 3\nevent: correction\ndata: ${JSON.stringify(hintFor('quiet', 3))}\n\n`);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const errors: string[] = [];
    const client = connectHttp({ baseUrl, agentId: 'quiet', taskId: 't', idleTimeoutMs: 300, reconnectDelayMs: 10, onError: (e) => errors.push(e.message) });
    const seen: Correction[] = [];
    const subscription = client.onCorrection((c) => void seen.push(c), { fromStart: true });
    const deadline = Date.now() + 10_000;
    while (seen.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await subscription.close();
    await client.close();
    for (const res of streams) res.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));

    expect(seen.map((c) => c.eventId)).toEqual(['cor-quiet-1', 'cor-quiet-3']);
    expect(opened.slice(0, 2)).toEqual([undefined, '2']);
    expect(errors.some((e) => e.includes('unreadable correction at cursor 2'))).toBe(true);
    expect(errors.some((e) => e.includes('no data for 300 ms; reconnecting'))).toBe(true);
  });
});
