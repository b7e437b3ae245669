import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('defaults to the embedded mode with every service', () => {
    const config = loadConfig({});
    expect(config.mode).toBe('embedded');
    expect(config.services).toEqual(['task-parser', 'state-localizer', 'detector-worker', 'correction-engine', 'memory-service', 'history-recorder', 'escalation-notifier']);
    expect(config.kafkaBrokers).toEqual(['127.0.0.1:9092']);
  });

  it('lets flags win over the environment', () => {
    const config = loadConfig({ WAYFINDER_KAFKA_BROKERS: 'a:1' }, { kafka: 'b:2,c:3', services: 'detector-worker' });
    expect(config.kafkaBrokers).toEqual(['b:2', 'c:3']);
    expect(config.services).toEqual(['detector-worker']);
  });

  it('lists every bad variable in one error', () => {
    expect.assertions(3);
    try {
      loadConfig({ WAYFINDER_MODE: 'cloud', WAYFINDER_REDIS_URL: 'http://x', WAYFINDER_SERVICES: 'nope' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(3);
      expect((error as Error).message).toContain('WAYFINDER_REDIS_URL');
    }
  });
});
