// A handler that fails because its dependency (Redis) is down does not dead-letter good messages: the
// consumer pauses until the dependency answers, then the same batch succeeds. A message that fails while
// everything answers is still a poison message and goes to the DLQ with its reason.
import { stepEvent, waitFor } from './bus.contract';
import { InProcessBus } from './in-process.bus';

describe('a dependency outage', () => {
  it('pauses consumption instead of dead-lettering, and resumes when the dependency answers', async () => {
    let down = false;
    const changes: boolean[] = [];
    const bus = new InProcessBus({ retry: { maxAttempts: 2, initialBackoffMs: 1, maxBackoffMs: 1 }, gate: { ready: async () => !down, onChange: (paused) => void changes.push(paused) } });
    const handled: number[] = [];
    const dlq: string[] = [];
    bus.subscribe('wayfinder.steps.v1', async (batch) => {
      if (down) throw new Error('Connection is closed.');
      handled.push(...batch.map((d) => d.payload.seq));
    }, { groupId: 'svc' });
    bus.subscribeRaw('wayfinder.steps.v1.dlq', async (batch) => void dlq.push(...batch.map((d) => d.headers['wf-dlq-error'] ?? '?')), { groupId: 'dlq-reader' });
    await bus.start();
    down = true;
    await bus.publish('wayfinder.steps.v1', Array.from({ length: 20 }, (_, seq) => stepEvent('a1', seq)));
    await new Promise((r) => setTimeout(r, 1_200));
    expect(handled).toEqual([]);
    expect(changes).toEqual([true]);
    down = false;
    await waitFor(() => handled.length >= 20, 5_000, '20 handled after the outage');
    expect(handled).toEqual(Array.from({ length: 20 }, (_, seq) => seq));
    expect(changes).toEqual([true, false]);
    expect(dlq).toEqual([]);
    await bus.stop();
  });

  it('still dead-letters a poison message while every dependency answers', async () => {
    const bus = new InProcessBus({ retry: { maxAttempts: 2, initialBackoffMs: 1, maxBackoffMs: 1 }, gate: { ready: async () => true } });
    const dlq: string[] = [];
    bus.subscribe('wayfinder.steps.v1', async (batch) => {
      if (batch.some((d) => d.payload.seq === 3)) throw new Error('cannot use seq 3');
    }, { groupId: 'svc' });
    bus.subscribeRaw('wayfinder.steps.v1.dlq', async (batch) => void dlq.push(...batch.map((d) => d.headers['wf-dlq-error'] ?? '?')), { groupId: 'dlq-reader' });
    await bus.start();
    await bus.publish('wayfinder.steps.v1', Array.from({ length: 5 }, (_, seq) => stepEvent('a1', seq)));
    await waitFor(() => dlq.length >= 1, 5_000, 'the poison message in the DLQ');
    expect(dlq).toEqual(['handler failed: cannot use seq 3']);
    await bus.stop();
  });
});
