/**
 * `wayfinder policy validate FILE`: checks a `wayfinder.policy.v1` document (tenant policy with its task
 * and agent overrides, webhook, shadow mode) exactly as `set` would send it, and prints every problem with
 * its path, exit 2; prints `valid` otherwise. `policy get` prints the key's tenant's policy from the gateway; `policy set FILE`
 * validates the same way first (every problem, exit 2, nothing sent), then PUTs it to the gateway, which
 * publishes it for every service (the envelope's schema, eventId and ts may be left out: a set is always
 * a new policy event; tenantId too: the key's tenant).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { POLICY_SCHEMA, TenantPolicy } from '@wayfinder/contracts';
import { validatePolicy } from '@wayfinder/detection';
import { parseCommandArgs } from '../args';
import { UsageError, type Command, type CommandIo } from '../command';
import { callGateway, GATEWAY_OPTIONS, gatewayTarget } from '../operator/gateway-client';
import { policyHelp } from './policy.help';

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
  ...policyHelp,
  async run(argv: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, GATEWAY_OPTIONS);
    const [action, ...rest] = positionals;
    if (action === 'validate') {
      if (rest.length !== 1) throw new UsageError(`expected 'policy validate FILE', got '${argv.join(' ')}'`);
      const problems = policyProblems(filledDocument(rest[0]).filled);
      return report(problems, io) ? 2 : (io.stdout.write('valid\n'), 0);
    }
    if (action === 'get') {
      if (rest.length > 0) throw new UsageError(`policy get takes no FILE, got '${rest[0]}'`);
      const policy = await callGateway(gatewayTarget(values), 'GET', '/v1/policy');
      io.stdout.write(JSON.stringify(policy, null, 2) + '\n');
      return 0;
    }
    if (action === 'set') {
      if (rest.length !== 1) throw new UsageError(`expected 'policy set FILE', got '${argv.join(' ')}'`);
      const target = gatewayTarget(values);
      const { body, filled } = filledDocument(rest[0]);
      if (report(policyProblems(filled), io)) return 2;
      const set = await callGateway<TenantPolicy>(target, 'PUT', '/v1/policy', body);
      io.stdout.write(`set the policy of tenant ${set.tenantId} (event ${set.eventId})\n`);
      return 0;
    }
    throw new UsageError(`expected 'policy validate FILE', 'policy get' or 'policy set FILE', got '${argv.join(' ') || '(nothing)'}'`);
  },
};

/** Prints every problem on stdout; true when there was one. */
function report(problems: readonly string[], io: CommandIo): boolean {
  for (const problem of problems) io.stdout.write(`${problem}\n`);
  return problems.length > 0;
}

/**
 * A policy file as `set` sends it (`body`: without eventId and ts, which every set makes new) and as
 * `validate` and `set` check it (`filled`: the envelope completed as the gateway completes it), so
 * `validate` accepts exactly what `set` accepts and names the field that is wrong, not a missing `schema`.
 */
function filledDocument(file: string): { body: Record<string, unknown>; filled: Record<string, unknown> } {
  const raw = readJson(file);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new UsageError(`${file} must hold one wayfinder.policy.v1 object`);
  const { eventId: _eventId, ts: _ts, ...body } = raw as Record<string, unknown>;
  return { body, filled: { schema: POLICY_SCHEMA, tenantId: 'the-key-tenant', ...body, eventId: randomUUID(), ts: new Date().toISOString() } };
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`cannot read ${file} as JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
