import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('defaults to the embedded mode with every service', () => {
    const config = loadConfig({});
    expect(config.mode).toBe('embedded');
    expect(config.services).toEqual(['task-parser', 'navigator', 'state-localizer', 'detector-worker', 'correction-engine', 'memory-service', 'gateway', 'otlp-normalizer', 'history-recorder', 'escalation-notifier']);
    expect(config.kafkaBrokers).toEqual(['127.0.0.1:9092']);
  });

  it('lets flags win over the environment', () => {
    const config = loadConfig({ WAYFINDER_KAFKA_BROKERS: 'a:1' }, { kafka: 'b:2,c:3', services: 'detector-worker' });
    expect(config.kafkaBrokers).toEqual(['b:2', 'c:3']);
    expect(config.services).toEqual(['detector-worker']);
  });

  it('maps --port and --host to the gateway and --health-port to the health endpoints', () => {
    const fromEnv = loadConfig({ WAYFINDER_GATEWAY_PORT: '7171', WAYFINDER_GATEWAY_HOST: '0.0.0.0', WAYFINDER_HTTP_PORT: '8080' });
    expect([fromEnv.gatewayPort, fromEnv.gatewayHost, fromEnv.httpPort]).toEqual([7171, '0.0.0.0', 8080]);
    const fromFlags = loadConfig({ WAYFINDER_GATEWAY_PORT: '7171' }, { port: '7272', host: '::1', 'health-port': '9000' });
    expect([fromFlags.gatewayPort, fromFlags.gatewayHost, fromFlags.httpPort]).toEqual([7272, '::1', 9000]);
    expect(loadConfig({}).gatewayHost).toBe('127.0.0.1');
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

  it('runs the bus on kafkajs unless WAYFINDER_KAFKA_CLIENT names @platformatic/kafka, and refuses any other client', () => {
    expect(loadConfig({}).kafkaClient).toBe('kafkajs');
    expect(loadConfig({ WAYFINDER_KAFKA_CLIENT: 'platformatic' }).kafkaClient).toBe('platformatic');
    expect(() => loadConfig({ WAYFINDER_KAFKA_CLIENT: 'librdkafka' })).toThrow(/WAYFINDER_KAFKA_CLIENT/);
  });
});
