/**
 * Scale-out on the real broker and Redis: two detector-worker instances share the service's consumer
 * group, so each gets a share of the agents' partitions — but both must apply every tenant's policy (the
 * policies topic has one partition). Compacted topics (policies, maps) are read whole by every
 * instance, in a group of its own.
 */
import type { TenantPolicy } from '@wayfinder/contracts';
import { createTopics } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { PolicyBook } from '@wayfinder/service-core';
import { requireKafka, uniqueTestName, until } from '@wayfinder/testing';
import { startServices, type RunningServices } from './runtime';

const ts = '2026-01-01T00:00:00.000Z';

describe('compacted topics reach every instance of a scaled-out service', () => {
  const prefix = `${uniqueTestName('instances')}.`;
  const instances: RunningServices[] = [];

  beforeAll(async () => {
    const brokers = await requireKafka();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 2 });
    for (const name of ['worker-a', 'worker-b']) {
      const config = loadConfig({
        WAYFINDER_MODE: 'distributed',
        WAYFINDER_KAFKA_BROKERS: brokers.join(','),
        WAYFINDER_TOPIC_PREFIX: prefix,
        WAYFINDER_PIPELINE: 'separate', // the detector-worker service itself
        WAYFINDER_KAFKA_CLIENT_ID: name,
        WAYFINDER_SERVICES: 'detector-worker',
      });
      instances.push(await startServices(config, { logger: false }));
    }
  });

  afterAll(async () => {
    for (const running of instances) await running.stop();
  });

  it('applies a tenant policy in both instances, and to that tenant only', async () => {
    const policy: TenantPolicy = { schema: 'wayfinder.policy.v1', eventId: 'p1', tenantId: 'acme', ts, policy: { loop: { errorRepeatWarning: 4, errorRepeatCritical: 8 } } };
    await instances[0].bus.publish('wayfinder.policies.v1', [policy]);
    for (const running of instances) {
      await until(() => running.policyBook.policyOf('acme', 'task', 'agent-1').loop.errorRepeatWarning === 4, 30_000, 'the policy in every instance');
    }
    const profileDefault = new PolicyBook('balanced').policyOf('globex', 'task', 'agent-1').loop.errorRepeatWarning;
    expect(profileDefault).not.toBe(4);
    for (const running of instances) expect(running.policyBook.policyOf('globex', 'task', 'agent-1').loop.errorRepeatWarning).toBe(profileDefault);
  });
});
