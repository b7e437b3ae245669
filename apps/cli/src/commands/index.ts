/** The registry of sub-commands. Add a command here to make it reachable from `wayfinder`. */
import type { Command } from '../command';
import { startCommand } from './start.command';
import { topicsCommand } from './topics.command';
import { mapCommand } from './map.command';
import { replayCommand } from './replay.command';
import { evalCommand } from './eval.command';
import { benchCommand } from './bench.command';
import { demoCommand } from './demo.command';
import { keysCommand } from './keys.command';
import { ingestCommand } from './ingest.command';
import { tailCommand } from './tail.command';
import { policyCommand } from './policy.command';
import { taskCommand } from './task.command';
import { agentCommand } from './agent.command';
import { dlqCommand } from './dlq.command';

export const COMMANDS: Command[] = [startCommand, mapCommand, topicsCommand, replayCommand, evalCommand, benchCommand, demoCommand, keysCommand, ingestCommand, tailCommand, policyCommand, taskCommand, agentCommand, dlqCommand];
