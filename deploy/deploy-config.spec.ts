/**
 * docker-compose.yml cannot run on a machine without a Docker engine, so its structure is checked here:
 * valid YAML, every dependency names a service, every mounted file exists, infrastructure has health
 * checks, and every Wayfinder service runs a command the CLI accepts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { SERVICE_NAMES } from '@wayfinder/config';

const root = join(__dirname, '..');
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true });
const services: Record<string, Record<string, unknown>> = compose.services;

describe('docker-compose.yml', () => {
  it('has the infrastructure and every Wayfinder service of the default (one-pass) pipeline, each running itself', () => {
    const stages = ['state-localizer', 'detector-worker', 'correction-engine']; // run by the navigator in one pass
    const wayfinder = SERVICE_NAMES.filter((s) => !stages.includes(s));
    for (const name of ['kafka', 'redis', 'qdrant', 'otel-collector', 'prometheus', 'grafana', 'topics', ...wayfinder]) {
      expect(Object.keys(services)).toContain(name);
    }
    for (const name of wayfinder) expect(services[name].command).toEqual(['start', '--mode', 'distributed', '--services', name]);
  });

  it('gives every service an image or a build', () => {
    for (const [name, service] of Object.entries(services)) {
      expect({ name, ok: Boolean(service.image || service.build) }).toEqual({ name, ok: true });
    }
  });

  it('only depends on services that exist', () => {
    for (const service of Object.values(services)) {
      const deps = service.depends_on;
      const names = Array.isArray(deps) ? deps : Object.keys((deps as object) ?? {});
      for (const dep of names) expect(Object.keys(services)).toContain(dep);
    }
  });

  it('mounts only files that exist in the repository', () => {
    for (const service of Object.values(services)) {
      for (const volume of (service.volumes as string[]) ?? []) {
        const source = volume.split(':')[0];
        if (source.startsWith('./')) expect(existsSync(join(root, source))).toBe(true);
      }
    }
  });

  it('serves the gateway and the memory API to the host, and gives Kafka a host listener', () => {
    expect(services.gateway.ports).toContain('7070:7070');
    expect(String(services.gateway.command)).toContain('gateway');
    const env = services.gateway.environment as Record<string, string>;
    expect([env.WAYFINDER_GATEWAY_HOST, env.WAYFINDER_MEMORY_HOST]).toEqual(['0.0.0.0', '0.0.0.0']);
    const kafka = services.kafka.environment as Record<string, string>;
    expect(kafka.KAFKA_ADVERTISED_LISTENERS.split(',')).toEqual(expect.arrayContaining(['PLAINTEXT://kafka:9092', 'HOST://localhost:9094']));
    expect(services.kafka.ports).toContain('9094:9094');
  });

  it('health-checks the infrastructure the services wait for', () => {
    for (const name of ['kafka', 'redis', 'qdrant', 'prometheus', 'grafana']) {
      expect(services[name].healthcheck).toBeDefined();
    }
  });
});

describe('Prometheus alert rules', () => {
  const rules = parse(readFileSync(join(root, 'deploy/prometheus/alerts.yml'), 'utf8'));

  it('are well-formed groups of named rules with an expression and a summary', () => {
    expect(Array.isArray(rules.groups)).toBe(true);
    for (const group of rules.groups) {
      for (const rule of group.rules) {
        expect(rule.alert).toMatch(/^Wayfinder[A-Za-z]+$/);
        expect(typeof rule.expr).toBe('string');
        expect(rule.annotations.summary.length).toBeGreaterThan(10);
      }
    }
  });
});
