/**
 * KafkaLagMonitor.stop() during the first poll's connect: the admin must end up disconnected. Before the
 * fix, stop() saw "not connected yet" and returned; the connect then finished and its socket kept a
 * stopped `wayfinder start` process alive until the broker dropped the idle connection (10 min), which
 * is what held `bench pipeline --backlog` (issue 17) after it stopped its task-parser child.
 */
import { KafkaLagMonitor } from './consumer-lag.monitor';

function fakeAdmin() {
  let release: () => void = () => undefined;
  const admin = {
    open: false,
    connect: jest.fn(() => new Promise<void>((resolve) => (release = () => { admin.open = true; resolve(); }))),
    disconnect: jest.fn(async () => void (admin.open = false)),
    fetchOffsets: jest.fn(async () => [{ topic: 'wayfinder.steps.v1', partitions: [{ partition: 0, offset: '3', metadata: null }] }]),
    fetchTopicOffsets: jest.fn(async () => [{ partition: 0, offset: '5', high: '5', low: '0' }]),
  };
  return { admin, release: () => release() };
}

describe('KafkaLagMonitor.stop', () => {
  it('closes the connection a poll was still opening when stop() was called', async () => {
    const { admin, release } = fakeAdmin();
    const monitor = new KafkaLagMonitor({ brokers: ['unused:9092'], groups: [{ groupId: 'g', topics: ['wayfinder.steps.v1'] }], admin: admin as never, intervalMs: 10 });
    monitor.start();
    expect(admin.connect).toHaveBeenCalledTimes(1);
    const stopping = monitor.stop();
    release();
    await stopping;
    await new Promise((r) => setTimeout(r, 30));
    expect(admin.open).toBe(false);
    expect(admin.connect).toHaveBeenCalledTimes(1); // no poll after stop
  });

  it('disconnects after a finished poll', async () => {
    const { admin, release } = fakeAdmin();
    const monitor = new KafkaLagMonitor({ brokers: ['unused:9092'], groups: [{ groupId: 'g', topics: ['wayfinder.steps.v1'] }], admin: admin as never });
    const polled = monitor.poll();
    release();
    expect(await polled).toEqual([{ group: 'g', topic: 'wayfinder.steps.v1', lag: 2 }]);
    await monitor.stop();
    expect(admin.open).toBe(false);
  });
});
