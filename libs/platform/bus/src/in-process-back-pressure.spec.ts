// Back-pressure of the in-process bus: publish waits while a consumer group's queue is full, and
// resumes as the consumer drains it; nothing is dropped.
import { stepEvent, waitFor } from './bus.contract';
import { InProcessBus } from './in-process.bus';

describe('InProcessBus back-pressure', () => {
  it('makes publish wait while a group queue is full and lets it finish once the consumer drains it', async () => {
    const bus = new InProcessBus({ queueCapacity: 10 });
    const handled: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    bus.subscribe(
      'wayfinder.steps.v1',
      async (batch) => {
        await gate;
        handled.push(...batch.map((d) => d.payload.seq));
      },
      { groupId: 'slow', maxBatchSize: 5 },
    );
    await bus.start();

    let published = false;
    const publishing = bus.publish('wayfinder.steps.v1', Array.from({ length: 40 }, (_, seq) => stepEvent('a1', seq))).then(() => {
      published = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(published).toBe(false);
    expect(handled).toEqual([]);

    release();
    await publishing;
    await waitFor(() => handled.length >= 40, 5_000, '40 handled');
    await bus.stop();
    expect(handled).toEqual(Array.from({ length: 40 }, (_, seq) => seq));
  });
});
