/**
 * Kafka connection security from the configuration (issue 14): TLS (`WAYFINDER_KAFKA_SSL=true`, with an
 * optional CA, client certificate and key read from files) and SASL PLAIN / SCRAM-SHA-256 /
 * SCRAM-SHA-512 (`WAYFINDER_KAFKA_SASL_MECHANISM`, `_USERNAME`, `_PASSWORD`). The result has the shape
 * of kafkajs' `ssl` and `sasl` client options, for every Kafka client a process builds (bus, topic
 * admin, lag monitor, health check).
 */
import { readFileSync } from 'node:fs';

export interface KafkaSecurity {
  ssl?: boolean | { ca?: string[]; cert?: string; key?: string; rejectUnauthorized: boolean };
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
}

export interface KafkaSecuritySettings {
  kafkaSsl: boolean;
  kafkaSslCa?: string;
  kafkaSslCert?: string;
  kafkaSslKey?: string;
  kafkaSslRejectUnauthorized: boolean;
  kafkaSaslMechanism?: 'plain' | 'scram-sha-256' | 'scram-sha-512';
  kafkaSaslUsername?: string;
  kafkaSaslPassword?: string;
}

/** The kafkajs `ssl`/`sasl` options of these settings (files read now); empty for a plaintext cluster. */
export function kafkaSecurity(settings: KafkaSecuritySettings, read: (path: string) => string = (p) => readFileSync(p, 'utf8')): KafkaSecurity {
  const out: KafkaSecurity = {};
  const files = settings.kafkaSslCa || settings.kafkaSslCert || settings.kafkaSslKey;
  if (settings.kafkaSsl || files) {
    out.ssl =
      files || !settings.kafkaSslRejectUnauthorized
        ? {
            rejectUnauthorized: settings.kafkaSslRejectUnauthorized,
            ...(settings.kafkaSslCa && { ca: [read(settings.kafkaSslCa)] }),
            ...(settings.kafkaSslCert && { cert: read(settings.kafkaSslCert) }),
            ...(settings.kafkaSslKey && { key: read(settings.kafkaSslKey) }),
          }
        : true;
  }
  if (settings.kafkaSaslMechanism) {
    out.sasl = { mechanism: settings.kafkaSaslMechanism, username: settings.kafkaSaslUsername ?? '', password: settings.kafkaSaslPassword ?? '' };
  }
  return out;
}
