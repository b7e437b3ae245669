// Issue #29, on the embedded runtime (every service in one process, the in-process bus): one tenant's
// hanging escalation webhook delayed another tenant's escalation by 90 s, because the notifier retried
// the whole batch. Two tenants freeze an agent each (a dangerous tool), tenant A first; A's receiver
// accepts the request and never answers, B's answers at once. B's escalation reaches B's receiver while
// A's request is still open — and A's escalation was posted first, so B did not wait behind it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningServices } from '../runtime';
import { call, eventually, startWithGateway } from './gateway.testing';

const KEYS = { a: 'tenant-a-webhook-key', b: 'tenant-b-webhook-key' };
const TASK = { taskId: 'cleanup', goal: 'Clean up the staging servers', milestones: [{ id: 'clean', description: 'clean the staging servers', dependsOn: [], validator: { type: 'marker' } }] };

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

function dangerous(agentId: string): Array<Record<string, unknown>> {
  return [0, 1].map((seq) => ({ agentId, taskId: 'cleanup', runId: 'r1', seq, kind: 'action', action: { tool: seq === 0 ? 'list_servers' : 'drop_database', args: { target: `/srv/${seq}` } } }));
}

describe('escalation webhooks of two tenants on the embedded runtime', () => {
  let running: RunningServices;
  let hanging: { server: Server; url: string };
  let answering: { server: Server; url: string };
  const openAtA: ServerResponse[] = [];
  const atB: Array<{ openAtA: number; body: string }> = [];

  beforeAll(async () => {
    hanging = await listen((req, res) => {
      req.resume();
      openAtA.push(res);
    });
    answering = await listen((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        atB.push({ openAtA: openAtA.filter((r) => !r.writableEnded && !r.destroyed).length, body });
        res.writeHead(204).end();
      });
    });
    running = await startWithGateway({ WAYFINDER_API_KEYS: `tenant-a:${KEYS.a},tenant-b:${KEYS.b}`, WAYFINDER_EGRESS_ALLOW: '127.0.0.1' }, { webhookTimeoutMs: 30_000 });
  });
  afterAll(async () => {
    for (const res of openAtA) res.destroy();
    hanging.server.closeAllConnections();
    await running?.stop();
    await new Promise((resolve) => hanging.server.close(resolve));
    await new Promise((resolve) => answering.server.close(resolve));
  });

  it('posts B’s escalation while A’s receiver still holds A’s', async () => {
    const base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    for (const [tenant, url] of [['a', hanging.url], ['b', answering.url]] as const) {
      const policy = { policy: { constraints: { enabled: true, dangerousTools: ['drop_database'] } }, webhook: { url, format: 'generic' } };
      expect((await call(base, 'PUT', '/v1/policy', { key: KEYS[tenant], body: policy })).status).toBe(200);
      expect((await call(base, 'POST', '/v1/tasks', { key: KEYS[tenant], body: TASK })).status).toBe(201);
    }
    expect((await call(base, 'POST', '/v1/steps', { key: KEYS.a, body: dangerous('bot-a') })).status).toBe(202);
    await eventually(async () => openAtA.length === 1, 20_000, 'A’s escalation at A’s receiver');
    expect((await call(base, 'POST', '/v1/steps', { key: KEYS.b, body: dangerous('bot-b') })).status).toBe(202);
    await eventually(async () => atB.length === 1, 20_000, 'B’s escalation at B’s receiver');
    expect(atB[0].openAtA).toBe(1);
    expect(JSON.parse(atB[0].body)).toMatchObject({ tenantId: 'tenant-b', agentId: 'bot-b' });
  }, 60_000);
});
