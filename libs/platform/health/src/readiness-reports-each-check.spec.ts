/**
 * The health server on a real socket: live is always 200; ready is 200 only when every check passes,
 * and 503 with the failing check named (a rejecting check, and one that never answers) otherwise.
 */
import { startHealthServer, type HealthServer } from './health.server';

async function get(server: HealthServer, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('health server', () => {
  let server: HealthServer;
  let redisUp = true;

  beforeAll(async () => {
    server = await startHealthServer({
      port: 0,
      host: '127.0.0.1',
      checkTimeoutMs: 200,
      checks: {
        kafka: async () => 'ok',
        redis: async () => {
          if (!redisUp) throw new Error('ECONNREFUSED 127.0.0.1:6379');
        },
      },
    });
  });

  afterAll(() => server.close());

  it('answers live while the process runs', async () => {
    expect(await get(server, '/health/live')).toEqual({ status: 200, body: { status: 'live' } });
  });

  it('is ready when every check passes', async () => {
    redisUp = true;
    const { status, body } = await get(server, '/health/ready');
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ready', checks: { kafka: { status: 'up' }, redis: { status: 'up' } } });
  });

  it('is not ready, naming the failing check, when a dependency is down', async () => {
    redisUp = false;
    const { status, body } = await get(server, '/health/ready');
    expect(status).toBe(503);
    expect(body).toMatchObject({
      status: 'not_ready',
      checks: { kafka: { status: 'up' }, redis: { status: 'down', error: 'ECONNREFUSED 127.0.0.1:6379' } },
    });
  });

  it('times out a check that never answers', async () => {
    redisUp = true;
    server.register('qdrant', () => new Promise(() => undefined));
    const { status, body } = await get(server, '/health/ready');
    expect(status).toBe(503);
    expect(body).toMatchObject({ checks: { qdrant: { status: 'down', error: 'no answer within 200 ms' }, redis: { status: 'up' } } });
  });

  it('answers 404 elsewhere and 405 to writes', async () => {
    expect((await get(server, '/metrics')).status).toBe(404);
    const response = await fetch(`http://127.0.0.1:${server.port}/health/live`, { method: 'POST' });
    expect(response.status).toBe(405);
  });
});
