/** The registry of sub-commands. Add a command here to make it reachable from `wayfinder`. */
import type { Command } from '../command';

export const COMMANDS: Command[] = [];
