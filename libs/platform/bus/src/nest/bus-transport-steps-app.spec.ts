// The Nest test app (testing/steps-app.ts) on the in-process bus: @EventPattern handlers get validated
// payloads in per-key order with a BusContext, a failing handler is retried without re-running the
// messages that already succeeded, and invalid input reaches the `.dlq` pattern with its reason.
import { InProcessBus } from '../in-process.bus';
import { runStepsAppScenario } from './testing/steps-app-scenario';

describe('BusTransport running a Nest microservice on the in-process bus', () => {
  it('runs @EventPattern handlers in order, retries a failing one without repeating the others, dead-letters invalid input', async () => {
    const bus = new InProcessBus({ retry: { maxAttempts: 3, initialBackoffMs: 5, maxBackoffMs: 20 } });
    await runStepsAppScenario(bus, 5_000);
  });
});
