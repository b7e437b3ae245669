/**
 * `wayfinder policy validate FILE`: checks a `wayfinder.policy.v1` document (tenant policy with its task
 * and agent overrides, webhook, shadow mode) and prints every problem with its path, exit 2; prints
 * `valid` otherwise. (`policy get|set` come with the gateway.)
 */
import { readFileSync } from 'node:fs';
import { TenantPolicy } from '@wayfinder/contracts';
import { validatePolicy } from '@wayfinder/detection';
import { UsageError, type Command, type CommandIo } from '../command';

const USAGE = `usage: wayfinder policy validate FILE

Checks a wayfinder.policy.v1 JSON file: prints each problem as "path: reason" and exits 2, or prints "valid".`;

/** Every problem of a policy document, each with its path (`agents.bot-1.loop.warning: …`). */
export function policyProblems(raw: unknown): string[] {
  const parsed = TenantPolicy.safeParse(raw);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => {
      const path = issue.path.join('.') || '(root)';
      const keys = issue.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
      return `${path}: ${issue.message}${keys}`;
    });
  }
  // Thresholds that parse but contradict each other, per overlay.
  const overlays: Array<[string, unknown]> = [['policy', parsed.data.policy]];
  for (const [id, o] of Object.entries(parsed.data.tasks ?? {})) overlays.push([`tasks.${id}`, o]);
  for (const [id, o] of Object.entries(parsed.data.agents ?? {})) overlays.push([`agents.${id}`, o]);
  const problems: string[] = [];
  for (const [path, overlay] of overlays) {
    const check = validatePolicy(overlay);
    if (!check.ok) problems.push(`${path}: ${check.error}`);
  }
  return problems;
}

export const policyCommand: Command = {
  name: 'policy',
  summary: 'validate a tenant policy file (policy validate FILE)',
  usage: USAGE,
  async run(argv: string[], io: CommandIo): Promise<number> {
    if (argv[0] !== 'validate' || argv.length !== 2) throw new UsageError(`expected 'policy validate FILE', got '${argv.join(' ') || '(nothing)'}'`);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(argv[1], 'utf8'));
    } catch (error) {
      throw new UsageError(`cannot read ${argv[1]} as JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const problems = policyProblems(raw);
    if (problems.length === 0) {
      io.stdout.write('valid\n');
      return 0;
    }
    for (const problem of problems) io.stdout.write(`${problem}\n`);
    return 2;
  },
};
