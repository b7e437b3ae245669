#!/usr/bin/env node
// `npm test`: lint, type-check, unit tests, then integration tests on a real Kafka broker and Redis, then
// the chaos suite (services killed and restarted; a broker and Redis of its own stopped and restarted).
// When the broker or Redis does not answer, it brings them up with deploy/local/infra-up.sh and takes
// down only what it started. Prints one closing line `tests: N passed, N failed` and exits non-zero on
// any failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_SKIP_NX_CACHE: 'true', FORCE_COLOR: '0' };
const resultsDir = path.join(root, '.wayfinder', 'test-results');
mkdirSync(resultsDir, { recursive: true });

function run(label, command, args) {
  process.stdout.write(`\n=== ${label}: ${command} ${args.join(' ')}\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  process.stdout.write(`=== ${label}: ${ok ? 'ok' : `FAILED (exit ${result.status ?? result.signal})`} in ${seconds}s\n`);
  return ok;
}

function reachable(host, port, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (value) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function jestCounts(file) {
  if (!existsSync(file)) return { passed: 0, failed: 1 };
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: report.numPassedTests, failed: report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0) };
}

const [kafkaHost, kafkaPort] = (process.env.WAYFINDER_KAFKA_BROKERS ?? '127.0.0.1:9092').split(',')[0].split(':');
const steps = [];
steps.push(run('lint', 'npx', ['nx', 'run-many', '-t', 'lint', '--parallel=2', '--outputStyle=static', '--skipNxCache']));
steps.push(run('type-check', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']));
const unitJson = path.join(resultsDir, 'unit.json');
steps.push(run('unit tests', 'npx', ['jest', '--selectProjects', 'unit', '--ci', '--json', `--outputFile=${unitJson}`]));

let startedInfra = false;
const kafkaUp = await reachable(kafkaHost, Number(kafkaPort));
const redisUp = await reachable('127.0.0.1', 6379);
if (!kafkaUp || !redisUp) {
  startedInfra = run('infra up', 'bash', [path.join('deploy', 'local', 'infra-up.sh')]);
  steps.push(startedInfra);
}
const intJson = path.join(resultsDir, 'integration.json');
steps.push(run('integration tests', 'npx', ['jest', '--selectProjects', 'integration', '--runInBand', '--ci', '--forceExit', '--json', `--outputFile=${intJson}`]));
const chaosJson = path.join(resultsDir, 'chaos.json');
steps.push(run('chaos tests', 'npx', ['jest', '--selectProjects', 'chaos', '--runInBand', '--ci', '--forceExit', '--json', `--outputFile=${chaosJson}`]));
if (startedInfra) run('infra down', 'bash', [path.join('deploy', 'local', 'infra-down.sh')]);

const unit = jestCounts(unitJson);
const integration = jestCounts(intJson);
const chaos = jestCounts(chaosJson);
const failedSteps = steps.filter((ok) => !ok).length;
const passed = unit.passed + integration.passed + chaos.passed;
const failedTests = unit.failed + integration.failed + chaos.failed;
const failed = failedTests + (failedSteps > 0 && failedTests === 0 ? failedSteps : 0);
process.stdout.write(`\nunit ${unit.passed} passed, ${unit.failed} failed; integration ${integration.passed} passed, ${integration.failed} failed; chaos ${chaos.passed} passed, ${chaos.failed} failed; steps failed: ${failedSteps}\n`);
process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
process.exit(failedSteps === 0 ? 0 : 1);
