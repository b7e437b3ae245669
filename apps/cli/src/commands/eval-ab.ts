/**
 * `wayfinder eval ab --agents N --seed K --arms none,navigation,sham [--rounds R] [--report FILE.html]`
 * (DESIGN §9): the goal-persistence A/B on a seeded simulated fleet; prints one JSON object
 * `{arms, differences}` and optionally writes the HTML report with the three arms and their curves.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ARMS, type Arm } from '@wayfinder/evaluation';
import { runAb } from '../demo/ab-run';
import { renderAbReport } from '../demo/ab-report';
import { intOption } from '../args';
import { UsageError, type CommandIo } from '../command';


const MAX_AGENTS = 2_000;

export interface AbArgs {
  agents?: string;
  seed?: string;
  arms?: string;
  rounds?: string;
  report?: string;
}

export async function runEvalAb(args: AbArgs, positionals: string[], io: CommandIo): Promise<number> {
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const agents = intOption(args.agents, 'agents', 150);
  if (agents > MAX_AGENTS) throw new UsageError(`--agents must be at most ${MAX_AGENTS}, got ${agents}`);
  const seed = intOption(args.seed, 'seed', 1, 0);
  const rounds = intOption(args.rounds, 'rounds', 150);
  const arms = parseArms(args.arms);
  if (args.report === '') throw new UsageError('--report needs a file name');
  const result = await runAb({ agents, seed, arms, rounds });
  io.stdout.write(JSON.stringify({ seed, agents, rounds, arms: result.arms, differences: result.differences }) + '\n');
  if (args.report) {
    const file = path.resolve(args.report);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, renderAbReport(result));
    io.stderr.write(`report ${file}\n`);
  }
  return 0;
}

function parseArms(value: string | undefined): Arm[] {
  if (value === undefined) return [...ARMS];
  const names = value.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  if (names.length === 0) throw new UsageError('--arms needs at least one of none,navigation,sham');
  for (const n of names) if (!(ARMS as readonly string[]).includes(n)) throw new UsageError(`--arms: unknown arm '${n}' (expected none, navigation, sham)`);
  if (new Set(names).size !== names.length) throw new UsageError('--arms: an arm is named twice');
  return names as Arm[];
}
