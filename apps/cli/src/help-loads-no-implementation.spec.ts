// `wayfinder --help` and `wayfinder <cmd> --help` answer from the commands' help modules alone: in a
// real process (bin/wayfinder.js), none of the implementation's heavy packages (Nest, Kafka clients,
// Redis, zod, OpenTelemetry) nor any command module is loaded. The compiled help (build-help.mjs) is
// used only while every source it came from is unchanged, and never for a command that runs. The
// gateway options' usage names the real default port.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { GATEWAY_DEFAULT_PORT } from '@wayfinder/config';
import { COMMANDS } from './commands';
import { GATEWAY_PORT_IN_USAGE } from './operator/gateway-usage';

const root = path.resolve(__dirname, '..', '..', '..');
const bin = path.join(root, 'bin', 'wayfinder.js');
const HEAVY = /node_modules\/(@nestjs|kafkajs|@platformatic\/kafka|ioredis|zod|@opentelemetry|rxjs)\/|\.command\.(ts|js)$/;

/** Runs bin/wayfinder.js with `args` in a child; its stdout, exit code and every module it loaded. */
function helpRun(args: string[], env: NodeJS.ProcessEnv = { WAYFINDER_CLI_HELP_DIST: 'off' }): { status: number | null; stdout: string; loaded: string[] } {
  const script = `process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify(Object.keys(require.cache)) + '\\n'));
    process.argv.splice(1, 0, ${JSON.stringify(bin)});
    require(${JSON.stringify(bin)});`;
  const run = spawnSync(process.execPath, ['-e', script, '--', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
  const line = run.stderr.split('\n').find((l) => l.startsWith('LOADED '));
  return { status: run.status, stdout: run.stdout, loaded: line ? (JSON.parse(line.slice('LOADED '.length)) as string[]) : [] };
}

describe('help loads no implementation', () => {
  it.each([[['--help']], [['tail', '--help']], [['dlq', '--help']], [['start', '-h']]])('%j', (args) => {
    const run = helpRun(args);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^usage: wayfinder /);
    expect(run.loaded.some((f) => /[/\\]main\.(ts|js)$/.test(f))).toBe(true);
    expect(run.loaded.filter((f) => HEAVY.test(f))).toEqual([]);
  });

  it('answers help from the compiled build while its sources are unchanged, from source otherwise', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wf-cli-help-'));
    const build = spawnSync(process.execPath, [path.join(root, 'apps', 'cli', 'scripts', 'build-help.mjs'), dir, '--strict'], { cwd: root, encoding: 'utf8' });
    expect(build.status).toBe(0);
    const compiledMain = path.join(dir, 'apps', 'cli', 'src', 'main.js');
    const fresh = helpRun(['dlq', '--help'], { WAYFINDER_CLI_HELP_DIST: dir });
    expect(fresh.stdout).toBe(helpRun(['dlq', '--help']).stdout);
    expect(fresh.loaded).toContain(compiledMain);
    expect(fresh.loaded.filter((f) => f.endsWith('.ts') || /node_modules\/(typescript|@swc-node)\//.test(f))).toEqual([]);
    // Not help: the command runs from source.
    const running = helpRun(['map', '--goal', 'Read the data -> write the report'], { WAYFINDER_CLI_HELP_DIST: dir });
    expect(running.status).toBe(0);
    expect(running.loaded).not.toContain(compiledMain);
    // A source that changed since the build (here: its recorded hash no longer matches): from source.
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { files: Record<string, string> };
    manifest.files['apps/cli/src/commands/dlq.help.ts'] = '0'.repeat(64);
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    const stale = helpRun(['dlq', '--help'], { WAYFINDER_CLI_HELP_DIST: dir });
    expect(stale.stdout).toBe(fresh.stdout);
    expect(stale.loaded).not.toContain(compiledMain);
    expect(stale.loaded).toContain(path.join(root, 'apps', 'cli', 'src', 'main.ts'));
  });

  it('lists every command once, each with its usage', () => {
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
    for (const c of COMMANDS) expect(c.usage).toMatch(new RegExp(`^usage: wayfinder ${c.name}`));
  });

  it("names the gateway's real default port", () => {
    expect(GATEWAY_PORT_IN_USAGE).toBe(GATEWAY_DEFAULT_PORT);
  });
});
