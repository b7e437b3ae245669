/** `wayfinder start`: runs services embedded (default) or on Kafka + Redis (DESIGN §3, §11). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, GATEWAY_DEFAULT_PORT, loadConfig } from '@wayfinder/config';
import { serveUntilStopped } from '@wayfinder/service-runtime';
import { parseCommandArgs } from '../args';
import { UsageError, type Command, type CommandIo } from '../command';
import { startLiveFleet, startSimulated } from './start-simulated';
import { startHelp } from './start.help';

const VERSION: string = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')).version;

export const startCommand: Command = {
  ...startHelp,
  async run(argv: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, {
      mode: { type: 'string' },
      services: { type: 'string' },
      kafka: { type: 'string' },
      redis: { type: 'string' },
      qdrant: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'health-port': { type: 'string' },
      simulate: { type: 'string' },
      fleet: { type: 'boolean' },
    }, false);
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    if (values.simulate !== undefined || values.fleet === true) {
      if (values.simulate !== undefined && values.fleet === true) throw new UsageError('--simulate N runs a fixed fleet, --fleet one that keeps arriving: use one of them');
      if (values.mode !== undefined && values.mode !== 'embedded') throw new UsageError('--simulate and --fleet run the embedded pipeline: leave out --mode or use --mode embedded');
      const asked = (values.port as string | undefined) ?? process.env.WAYFINDER_GATEWAY_PORT ?? String(GATEWAY_DEFAULT_PORT);
      const port = Number(asked);
      if (!/^\d+$/.test(asked) || port > 65535) throw new UsageError(`--port (or WAYFINDER_GATEWAY_PORT) must be a port number, got '${asked}'`);
      const log = (line: string): boolean => io.stderr.write(line + '\n');
      if (values.fleet === true) {
        await startLiveFleet(port, log);
        return 0;
      }
      const agents = Number(values.simulate);
      if (!Number.isInteger(agents) || agents < 1 || agents > 10_000) throw new UsageError(`--simulate must be a whole number of agents from 1 to 10000, got '${values.simulate}'`);
      await startSimulated(agents, port, log);
      return 0;
    }
    let config;
    try {
      const flags = values as Record<string, string | undefined>;
      config = loadConfig(process.env, { ...flags, port: flags.port ?? process.env.WAYFINDER_GATEWAY_PORT ?? String(GATEWAY_DEFAULT_PORT) });
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
    await serveUntilStopped(config, VERSION, (line) => io.stderr.write(line + '\n'));
    return 0;
  },
};
