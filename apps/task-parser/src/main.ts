/**
 * The task-parser service alone, one process (DESIGN §3 "distributed"): the same as
 * `wayfinder start --mode distributed --services task-parser`. Run: node bin/run-ts.js apps/task-parser/src/main.ts
 */
import { ConfigError, loadConfig } from '@wayfinder/config';
import { serveUntilStopped } from '@wayfinder/service-runtime';

async function main(): Promise<void> {
  const config = loadConfig(process.env, { mode: process.env.WAYFINDER_MODE ?? 'distributed', services: 'task-parser' });
  await serveUntilStopped(config, process.env.npm_package_version ?? '0.1.0', (line) => process.stderr.write(line + '\n'));
}

main().catch((error: unknown) => {
  process.stderr.write(`task-parser: ${error instanceof ConfigError ? error.message : (error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
