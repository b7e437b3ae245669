// Issue #30's rollback through the LLM proxy (chat completions and Anthropic messages), on the real broker
// and Redis (distributed mode): the rollback comes to the gateway over the corrections topic (the specs:
// proxy-rollback.testing.ts).
import { startGatewayOnKafka } from './gateway.testing';
import { describeRollbackThroughTheProxy } from './proxy-rollback.testing';

describeRollbackThroughTheProxy(
  'on Kafka',
  async (env) => {
    const kafka = await startGatewayOnKafka('proxy-rollback', env);
    return { base: kafka.base, bus: kafka.running.bus, stop: () => kafka.stop() };
  },
  60_000,
);
