// Issue #31: health on the gateway's own port. `/health/live` and `/health/ready` answer without a key on a
// gateway that needs one everywhere else; ready runs the readiness checks it is given (the runtime gives
// the ones its health server runs): 200 when each passes, 503 naming the one that fails or does not answer.
import { InProcessBus } from '@wayfinder/bus';
import type { HealthCheck } from '@wayfinder/health';
import { startGatewayService, type RunningGateway } from '@wayfinder/service-gateway';
import { hashApiKey, InMemoryCorrectionLog, InMemoryKeyStore, TenantAuthenticator } from '@wayfinder/tenancy';
import type { RunningServices } from '../runtime';
import { call, startWithGateway } from './gateway.testing';

describe('the gateway port serves health without a key', () => {
  describe('in the running services, keys configured', () => {
    let running: RunningServices;
    let base: string;

    beforeAll(async () => {
      running = await startWithGateway({ WAYFINDER_API_KEYS: 'acme:acme-secret-key' });
      base = running.gateway?.url ?? '';
    });
    afterAll(async () => {
      await running?.stop();
    });

    it('answers live and ready to a probe without a key, while the API still needs one', async () => {
      expect(await call(base, 'GET', '/health/live')).toMatchObject({ status: 200, body: { status: 'live' } });
      const ready = await call(base, 'GET', '/health/ready');
      expect(ready).toMatchObject({ status: 200, body: { status: 'ready', checks: {} } });
      expect(ready.headers.get('cache-control')).toBe('no-store');
      expect((await call(base, 'GET', '/v1/policy')).status).toBe(401);
      expect((await call(base, 'POST', '/health/live')).status).toBe(404);
    });
  });

  describe('given the process checks', () => {
    let gateway: RunningGateway;
    let redisUp = true;
    const checks: Record<string, HealthCheck> = {
      redis: async () => {
        if (!redisUp) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
      },
    };

    beforeAll(async () => {
      const authenticator = new TenantAuthenticator([{ tenantId: 'acme', hash: hashApiKey('acme-secret-key') }], new InMemoryKeyStore(), false);
      gateway = await startGatewayService({ bus: new InProcessBus(), authenticator, correctionLog: new InMemoryCorrectionLog(), port: 0, host: '127.0.0.1', logger: false, health: { checks, checkTimeoutMs: 200 } });
    });
    afterAll(async () => {
      await gateway?.stop();
    });

    it('is ready while every check passes, and 503 naming the failing check otherwise', async () => {
      expect(await call(gateway.url, 'GET', '/health/ready')).toMatchObject({ status: 200, body: { status: 'ready', checks: { redis: { status: 'up' } } } });
      redisUp = false;
      const down = await call(gateway.url, 'GET', '/health/ready');
      expect(down).toMatchObject({ status: 503, body: { status: 'not_ready', checks: { redis: { status: 'down', error: expect.stringContaining('ECONNREFUSED') } } } });
      expect(await call(gateway.url, 'GET', '/health/live')).toMatchObject({ status: 200, body: { status: 'live' } });
      redisUp = true;
      expect((await call(gateway.url, 'GET', '/health/ready')).status).toBe(200);
    });

    it('reads the checks at every request: one added later that never answers makes it not ready', async () => {
      checks.kafka = () => new Promise(() => undefined);
      const stuck = await call(gateway.url, 'GET', '/health/ready');
      expect(stuck).toMatchObject({ status: 503, body: { checks: { redis: { status: 'up' }, kafka: { status: 'down', error: expect.stringContaining('200 ms') } } } });
      delete checks.kafka;
    });
  });
});
