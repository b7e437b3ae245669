/**
 * `wayfinder agent resume ID [--tenant T] [--reason TEXT]`: a person unfreezes an agent of the key's
 * tenant through the gateway (a control event the correction engine consumes; the escalation closes in
 * the operators' views). Another tenant's agent, or one with no corrections, is a 404 from the gateway:
 * one line, exit 1. `--tenant` travels as `?tenantId=`, which the gateway's guard checks against the
 * key: another tenant than the key's is a 403; in local mode (no key) it names the tenant, e.g. one of
 * a simulated fleet's.
 */
import { checkTenantId } from '@wayfinder/tenancy';
import { parseCommandArgs } from '../args';
import { UsageError, type Command, type CommandIo } from '../command';
import { callGateway, GATEWAY_OPTIONS, gatewayTarget } from '../operator/gateway-client';
import { agentHelp } from './agent.help';

export const agentCommand: Command = {
  ...agentHelp,
  async run(argv: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, { ...GATEWAY_OPTIONS, reason: { type: 'string' }, tenant: { type: 'string' } });
    const [action, ...rest] = positionals;
    if (action !== 'resume') throw new UsageError(`expected 'agent resume ID', got '${positionals.join(' ') || '(nothing)'}'`);
    if (rest.length !== 1) throw new UsageError('agent resume takes one agent ID');
    const agentId = rest[0];
    if (agentId.length > 128) throw new UsageError('the agent ID must be at most 128 characters');
    if (values.reason !== undefined && values.reason.length > 4096) throw new UsageError('--reason must be at most 4096 characters');
    const tenant = values.tenant;
    const problem = tenant === undefined ? undefined : checkTenantId(tenant);
    if (problem) throw new UsageError(`--tenant: ${problem}`);
    const target = gatewayTarget(values);
    const query = tenant === undefined ? '' : `?tenantId=${encodeURIComponent(tenant)}`;
    await callGateway(target, 'POST', `/v1/agents/${encodeURIComponent(agentId)}/resume${query}`, values.reason !== undefined ? { reason: values.reason } : {});
    io.stdout.write(`resumed ${agentId}${tenant === undefined ? '' : ` of tenant ${tenant}`}\n`);
    return 0;
  },
};
