// Issue #29: the operations surface served alone in local mode (serveOperationsLocally, LocalOperatorGuard)
// took every request as the local operator, whatever its Host, Origin or content type, so a rebinding
// name or a cross-site page could mark false positives there. It now runs local mode's doors like the
// gateway (local-mode-doors.ts): another Host → 421, a foreign Origin → 403, a form-like body → 415; and a
// session cookie's state-changing request needs the session's CSRF token.
import type { INestApplication } from '@nestjs/common';
import { request } from 'node:http';
import { InProcessBus } from '@wayfinder/bus';
import { InMemoryHistoryStore } from '@wayfinder/history';
import { deviationRecord, stepRecord, T0 } from '@wayfinder/history/testing';
import { PolicyBook } from '@wayfinder/service-core';
import { serveOperationsLocally } from './serve-operations';
import { SessionBook } from './session-book';

function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          // a page
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the operations surface served alone in local mode', () => {
  let app: INestApplication;
  let port: number;
  const bus = new InProcessBus();
  const store = new InMemoryHistoryStore({ now: () => T0 + 60_000 });
  const sessions = new SessionBook();
  const acme = { tenantId: 'acme', agentId: 'a1' };
  const marks = async () => (await store.agentHistory('acme', 'a1', { kinds: ['false-positive'] })).length;
  const mark = '/v1/deviations/d-a1-2/false-positive?tenantId=acme';

  beforeAll(async () => {
    await store.append([stepRecord(acme, 1, T0), stepRecord(acme, 2, T0 + 1_000), deviationRecord(acme, 2, T0 + 1_100)]);
    await bus.start();
    let url: string;
    ({ app, url } = await serveOperationsLocally({ store, bus, policies: new PolicyBook(), sessions }));
    port = Number(new URL(url).port);
  });
  afterAll(async () => {
    await app.close();
    await bus.stop();
  });

  it('refuses a foreign Host (421) on the API and the dashboard', async () => {
    for (const path of ['/v1/agents?tenantId=acme', '/', '/agents/a1?tenantId=acme']) {
      const answer = await send(port, 'GET', path, { host: 'rebind.attacker.example' });
      expect({ path, status: answer.status, field: answer.body?.field }).toEqual({ path, status: 421, field: 'Host' });
    }
    expect((await send(port, 'POST', mark, { host: 'rebind.attacker.example:80' })).status).toBe(421);
    expect(await marks()).toBe(0);
  });

  it('refuses a foreign Origin (403) and a form-like body (415), and marks nothing', async () => {
    const foreign = await send(port, 'POST', mark, { host: `127.0.0.1:${port}`, origin: 'http://attacker.example' });
    expect(foreign).toMatchObject({ status: 403, body: { field: 'Origin' } });
    const form = await send(port, 'POST', mark, { host: `127.0.0.1:${port}`, 'content-type': 'text/plain' }, '{}');
    expect(form).toMatchObject({ status: 415, body: { field: 'Content-Type' } });
    expect(await marks()).toBe(0);
  });

  it('serves loopback Host and Origin', async () => {
    expect((await send(port, 'GET', '/v1/agents?tenantId=acme', { host: 'localhost' })).status).toBe(200);
    expect((await send(port, 'POST', mark, { host: `127.0.0.1:${port}`, origin: `http://localhost:${port}` })).status).toBe(202);
    expect(await marks()).toBe(1);
  });

  it("asks a session cookie's state-changing request for the session's CSRF token", async () => {
    const token = sessions.open({ tenantId: 'acme', operator: true });
    const cookie = `wf_session=${token}`;
    const csrf = sessions.sessionOfCookie(cookie)!.csrfToken;
    const other = sessions.sessionOfCookie(`wf_session=${sessions.open({ tenantId: 'acme', operator: true })}`)!.csrfToken;
    expect(await send(port, 'POST', mark, { host: 'localhost', cookie })).toMatchObject({ status: 403, body: { field: 'X-CSRF-Token' } });
    expect((await send(port, 'POST', mark, { host: 'localhost', cookie, 'x-csrf-token': other })).status).toBe(403);
    expect((await send(port, 'POST', mark, { host: 'localhost', cookie, 'x-csrf-token': csrf })).status).toBe(202);
    expect((await send(port, 'GET', '/v1/agents', { host: 'localhost', cookie })).status).toBe(200);
  });
});
