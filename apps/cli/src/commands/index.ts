/**
 * The registry of sub-commands. Add a command here to make it reachable from `wayfinder`. Each entry is
 * the command's help (a module that imports nothing heavy) and a loader of its implementation, so that
 * `wayfinder --help` and `wayfinder <cmd> --help` load neither Nest, nor Kafka, nor the contracts: only the
 * command that runs is loaded.
 */
import type { Command, CommandHelp } from '../command';
import { agentHelp } from './agent.help';
import { benchHelp } from './bench.help';
import { demoHelp } from './demo.help';
import { dlqHelp } from './dlq.help';
import { evalHelp } from './eval.help';
import { ingestHelp } from './ingest.help';
import { keysHelp } from './keys.help';
import { mapHelp } from './map.help';
import { policyHelp } from './policy.help';
import { replayHelp } from './replay.help';
import { startHelp } from './start.help';
import { tailHelp } from './tail.help';
import { taskHelp } from './task.help';
import { topicsHelp } from './topics.help';

export interface CommandEntry extends CommandHelp {
  /** Imports the command's implementation. */
  load(): Promise<Command>;
}

const entry = (help: CommandHelp, load: () => Promise<Command>): CommandEntry => ({ ...help, load });

export const COMMANDS: readonly CommandEntry[] = [
  entry(startHelp, async () => (await import('./start.command')).startCommand),
  entry(mapHelp, async () => (await import('./map.command')).mapCommand),
  entry(topicsHelp, async () => (await import('./topics.command')).topicsCommand),
  entry(replayHelp, async () => (await import('./replay.command')).replayCommand),
  entry(evalHelp, async () => (await import('./eval.command')).evalCommand),
  entry(benchHelp, async () => (await import('./bench.command')).benchCommand),
  entry(demoHelp, async () => (await import('./demo.command')).demoCommand),
  entry(keysHelp, async () => (await import('./keys.command')).keysCommand),
  entry(ingestHelp, async () => (await import('./ingest.command')).ingestCommand),
  entry(tailHelp, async () => (await import('./tail.command')).tailCommand),
  entry(policyHelp, async () => (await import('./policy.command')).policyCommand),
  entry(taskHelp, async () => (await import('./task.command')).taskCommand),
  entry(agentHelp, async () => (await import('./agent.command')).agentCommand),
  entry(dlqHelp, async () => (await import('./dlq.command')).dlqCommand),
];
