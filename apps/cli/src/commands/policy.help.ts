/** `wayfinder policy`: name, summary and usage, loaded for `--help` without the command's implementation. */
import type { CommandHelp } from '../command';
import { GATEWAY_USAGE } from '../operator/gateway-usage';

export const policyHelp: CommandHelp = {
  name: 'policy',
  summary: "validate a policy file, get or set the key's tenant's policy",
  usage: `usage: wayfinder policy validate FILE
       wayfinder policy get [--gateway URL] [--key KEY]
       wayfinder policy set FILE [--gateway URL] [--key KEY]

validate: checks a wayfinder.policy.v1 JSON file as set would send it (schema, eventId, ts and tenantId
          may be left out): prints each problem as "path: reason" on a line and exits 2, or prints "valid".
get:      prints the key's tenant's policy (JSON; the built-in profile's values when it set none).
set:      validates FILE like validate (problems: printed, exit 2, nothing sent), then sets it as the key's
          tenant's policy; schema, eventId, ts and tenantId may be left out of the file.
${GATEWAY_USAGE}`,
};
