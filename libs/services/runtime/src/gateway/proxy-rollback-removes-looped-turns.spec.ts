// Issue #30's rollback through the LLM proxy (chat completions and Anthropic messages), embedded: every
// service in process (the specs: proxy-rollback.testing.ts).
import { startWithGateway } from './gateway.testing';
import { describeRollbackThroughTheProxy } from './proxy-rollback.testing';

describeRollbackThroughTheProxy('embedded', async (env) => {
  const running = await startWithGateway(env);
  return { base: running.gateway!.url, bus: running.bus, stop: () => running.stop() }; // eslint-disable-line @typescript-eslint/no-non-null-assertion
});
