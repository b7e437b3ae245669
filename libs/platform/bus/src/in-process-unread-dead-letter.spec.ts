// In embedded mode nobody may read the DLQ: a dead letter is then reported, not silently dropped.
import { DLQ_HEADERS } from '@wayfinder/contracts';
import { waitFor } from './bus.contract';
import { InProcessBroker, InProcessBus } from './in-process.bus';

describe('InProcessBus dead letters without a reader', () => {
  it('reports each one with its topic, key and reason', async () => {
    const reported: Array<{ topic: string; key: string | null; error: string }> = [];
    const broker = new InProcessBroker((topic, key, headers) => reported.push({ topic, key, error: headers[DLQ_HEADERS.error] }));
    const bus = new InProcessBus({ broker });
    bus.subscribe('wayfinder.steps.v1', async () => undefined, { groupId: 'steps' });
    await bus.start();
    await bus.publishRaw('wayfinder.steps.v1', 'tenant-a:a1', 'not json');
    await waitFor(() => reported.length >= 1, 5_000, 'the report');
    await bus.stop();

    expect(reported).toEqual([{ topic: 'wayfinder.steps.v1.dlq', key: 'tenant-a:a1', error: expect.stringMatching(/^invalid JSON/) }]);
  });
});
