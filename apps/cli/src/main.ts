/** Entry point of the `wayfinder` command line (DESIGN §11). */
import { UsageError, type CommandIo } from './command';
import { COMMANDS } from './commands';

function usage(): string {
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(8)} ${c.summary}`);
  return ['usage: wayfinder <command> [options]', '', 'commands:', ...lines, '', "run 'wayfinder <command> --help' for a command's options"].join('\n');
}

export async function runCli(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(usage() + '\n');
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`wayfinder: unknown command '${name}' (try 'wayfinder --help')\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(command.usage.trimEnd() + '\n');
    return 0;
  }
  try {
    return await (await command.load()).run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`wayfinder ${name}: ${error.message}\n`);
      return 2;
    }
    io.stderr.write(`wayfinder ${name}: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  }
}

if (require.main === module || process.argv[1]?.endsWith('wayfinder.js') || process.argv[1]?.endsWith('wayfinder')) {
  runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`wayfinder: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
