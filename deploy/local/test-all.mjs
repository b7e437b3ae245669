#!/usr/bin/env node
// `npm test`: lint, type-check, the embedding models' fetch (once), unit tests, then integration tests on a
// real Kafka broker and Redis, the Python client's tests against a real gateway, then the chaos suite
// (services killed and restarted; a broker and Redis of its own stopped and restarted).
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

// clients/python: `python3 -m unittest` against the real gateway (the tests start `wayfinder start`);
// its counts join the closing line. No python3 on PATH is a failure, said loudly, not a skip.
function pythonClientTests() {
  const label = 'python client tests';
  const args = ['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.', '-v'];
  process.stdout.write(`\n=== ${label}: python3 ${args.join(' ')} (in clients/python)\n`);
  const result = spawnSync('python3', args, { cwd: path.join(root, 'clients', 'python'), env, encoding: 'utf8' });
  if (result.error) {
    process.stdout.write(`=== ${label}: FAILED (python3 not runnable: ${result.error.message})\n`);
    return { ok: false, passed: 0, failed: 1 };
  }
  process.stdout.write(result.stdout + result.stderr);
  const ran = Number(/^Ran (\d+) tests?/m.exec(result.stderr)?.[1] ?? 0);
  const problems = /^FAILED \((.*)\)$/m.exec(result.stderr)?.[1] ?? '';
  const failed = [...problems.matchAll(/(?:failures|errors)=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0) || (result.status === 0 ? 0 : 1);
  const ok = result.status === 0;
  process.stdout.write(`=== ${label}: ${ok ? 'ok' : `FAILED (exit ${result.status})`}\n`);
  return { ok, passed: Math.max(0, ran - failed), failed };
}

const [kafkaHost, kafkaPort] = (process.env.WAYFINDER_KAFKA_BROKERS ?? '127.0.0.1:9092').split(',')[0].split(':');
const steps = [];
steps.push(run('lint', 'npx', ['nx', 'run-many', '-t', 'lint', '--parallel=2', '--outputStyle=static', '--skipNxCache']));
steps.push(run('type-check', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']));
// The embedding models (DESIGN §5.6) that the semantic embedders' specs run on; fetched once, then a no-op.
steps.push(run('embedding models', 'bash', [path.join('deploy', 'local', 'fetch-models.sh')]));
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
const python = pythonClientTests();
steps.push(python.ok);
const chaosJson = path.join(resultsDir, 'chaos.json');
steps.push(run('chaos tests', 'npx', ['jest', '--selectProjects', 'chaos', '--runInBand', '--ci', '--forceExit', '--json', `--outputFile=${chaosJson}`]));
if (startedInfra) run('infra down', 'bash', [path.join('deploy', 'local', 'infra-down.sh')]);

const unit = jestCounts(unitJson);
const integration = jestCounts(intJson);
const chaos = jestCounts(chaosJson);
const failedSteps = steps.filter((ok) => !ok).length;
const passed = unit.passed + integration.passed + python.passed + chaos.passed;
const testFailures = unit.failed + integration.failed + python.failed + chaos.failed;
const failed = testFailures + (failedSteps > 0 && testFailures === 0 ? failedSteps : 0);
process.stdout.write(`\nunit ${unit.passed} passed, ${unit.failed} failed; integration ${integration.passed} passed, ${integration.failed} failed; python ${python.passed} passed, ${python.failed} failed; chaos ${chaos.passed} passed, ${chaos.failed} failed; steps failed: ${failedSteps}\n`);
process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
process.exit(failedSteps === 0 ? 0 : 1);
