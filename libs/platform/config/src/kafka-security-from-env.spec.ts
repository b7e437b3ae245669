// Kafka TLS and SASL come from WAYFINDER_KAFKA_* variables; an incomplete SASL setting stops the boot
// with the variables named, and a plaintext cluster gets no ssl/sasl options at all.
import { ConfigError, loadConfig } from './config';
import { kafkaSecurity } from './kafka-security';

describe('Kafka security from the environment', () => {
  it('builds TLS with a CA and SCRAM credentials', () => {
    const config = loadConfig({
      WAYFINDER_KAFKA_SSL: 'true',
      WAYFINDER_KAFKA_SSL_CA: '/etc/kafka/ca.pem',
      WAYFINDER_KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
      WAYFINDER_KAFKA_SASL_USERNAME: 'wayfinder',
      WAYFINDER_KAFKA_SASL_PASSWORD: 's3cret',
    });
    const files: Record<string, string> = { '/etc/kafka/ca.pem': '-----BEGIN CERTIFICATE-----' };
    expect(kafkaSecurity(config, (path) => files[path])).toEqual({
      ssl: { rejectUnauthorized: true, ca: ['-----BEGIN CERTIFICATE-----'] },
      sasl: { mechanism: 'scram-sha-512', username: 'wayfinder', password: 's3cret' },
    });
  });

  it('uses plain TLS and SASL PLAIN, and nothing for a plaintext cluster', () => {
    expect(kafkaSecurity(loadConfig({ WAYFINDER_KAFKA_SSL: 'true', WAYFINDER_KAFKA_SASL_MECHANISM: 'plain', WAYFINDER_KAFKA_SASL_USERNAME: 'u', WAYFINDER_KAFKA_SASL_PASSWORD: 'p' }))).toEqual({
      ssl: true,
      sasl: { mechanism: 'plain', username: 'u', password: 'p' },
    });
    expect(kafkaSecurity(loadConfig({}))).toEqual({});
  });

  it('refuses SASL without credentials and an unknown mechanism, naming the variables', () => {
    expect(() => loadConfig({ WAYFINDER_KAFKA_SASL_MECHANISM: 'plain' })).toThrow(/WAYFINDER_KAFKA_SASL_MECHANISM: needs WAYFINDER_KAFKA_SASL_USERNAME and WAYFINDER_KAFKA_SASL_PASSWORD/);
    try {
      loadConfig({ WAYFINDER_KAFKA_SASL_MECHANISM: 'kerberos', WAYFINDER_KAFKA_SSL: 'yes' });
      throw new Error('no error');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join('\n')).toMatch(/WAYFINDER_KAFKA_SASL_MECHANISM[\s\S]*WAYFINDER_KAFKA_SSL|WAYFINDER_KAFKA_SSL[\s\S]*WAYFINDER_KAFKA_SASL_MECHANISM/);
    }
  });
});
