// requireKafka fails (never skips) with a message saying how to start the broker; kafkaBrokers reads the env.
import { kafkaBrokers, requireKafka, uniqueTestName } from './kafka';

describe('Kafka test infrastructure helpers', () => {
  const saved = process.env['WAYFINDER_KAFKA_BROKERS'];
  afterEach(() => {
    if (saved === undefined) delete process.env['WAYFINDER_KAFKA_BROKERS'];
    else process.env['WAYFINDER_KAFKA_BROKERS'] = saved;
  });

  it('reads brokers from WAYFINDER_KAFKA_BROKERS and defaults to the local broker', () => {
    process.env['WAYFINDER_KAFKA_BROKERS'] = ' kafka-1:9092, kafka-2:9092 ,';
    expect(kafkaBrokers()).toEqual(['kafka-1:9092', 'kafka-2:9092']);
    delete process.env['WAYFINDER_KAFKA_BROKERS'];
    expect(kafkaBrokers()).toEqual(['127.0.0.1:9092']);
  });

  it('rejects with instructions when no broker answers', async () => {
    await expect(requireKafka(['127.0.0.1:1'], 300)).rejects.toThrow(/Kafka does not answer at 127\.0\.0\.1:1 .*npm run infra:up/);
  });

  it('makes names that differ between calls', () => {
    expect(uniqueTestName('x')).not.toBe(uniqueTestName('x'));
    expect(uniqueTestName('x')).toMatch(/^it-x-[a-z0-9]+-[0-9a-f]{6}$/);
  });
});
