/** `wayfinder agent`: name, summary and usage, loaded for `--help` without the command's implementation. */
import type { CommandHelp } from '../command';
import { GATEWAY_USAGE } from '../operator/gateway-usage';

export const agentHelp: CommandHelp = {
  name: 'agent',
  summary: "resume a frozen agent of the key's tenant (agent resume ID)",
  usage: `usage: wayfinder agent resume ID [--tenant T] [--reason TEXT] [--gateway URL] [--key KEY]

Resumes a frozen agent of the key's tenant (needs an operator key; a viewer key is refused).
  --tenant  the agent's tenant: refused (403) unless it is the key's; in local mode (no key) it picks the
            tenant, such as one of a simulated fleet's (default: the key's tenant, or "local")
  --reason  why (kept in the agent's history, at most 4096 characters)
${GATEWAY_USAGE}`,
};
