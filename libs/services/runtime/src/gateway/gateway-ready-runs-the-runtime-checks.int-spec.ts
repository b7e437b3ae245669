/**
 * Issue #31, distributed on the real broker and Redis: `/health/ready` on the gateway's port runs the
 * checks the runtime's health server runs (Kafka answers a metadata request, Redis answers PING), without
 * a key, and both report the same checks.
 */
import { createTopics } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { deleteTestTopics, requireKafka, uniqueTestName } from '@wayfinder/testing';
import { startServices, type RunningServices } from '../runtime';
import { call } from './gateway.testing';

describe("the gateway's readiness in distributed mode", () => {
  const prefix = `${uniqueTestName('gwready')}.`;
  let brokers: string[];
  let running: RunningServices;

  beforeAll(async () => {
    brokers = await requireKafka();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 1 });
    const config = loadConfig({ WAYFINDER_MODE: 'distributed', WAYFINDER_SERVICES: 'gateway', WAYFINDER_KAFKA_BROKERS: brokers.join(','), WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_GROUP_PREFIX: `${prefix}wf`, WAYFINDER_GATEWAY_PORT: '0', WAYFINDER_HTTP_PORT: '0' });
    running = await startServices(config, { logger: false });
  }, 120_000);

  afterAll(async () => {
    await running?.stop();
    await deleteTestTopics(brokers, prefix);
  });

  it('reports Kafka and Redis up on the gateway port, as the health server does', async () => {
    const gateway = await call(running.gateway?.url ?? '', 'GET', '/health/ready');
    expect(gateway).toMatchObject({ status: 200, body: { status: 'ready', checks: { kafka: { status: 'up' }, redis: { status: 'up' } } } });
    const server = await call(`http://127.0.0.1:${running.health?.port}`, 'GET', '/health/ready');
    expect(Object.keys(gateway.body.checks).sort()).toEqual(Object.keys(server.body.checks).sort());
    expect((await call(running.gateway?.url ?? '', 'GET', '/v1/policy')).status).toBe(401);
  }, 30_000);
});
