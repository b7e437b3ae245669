/** `wayfinder keys`: name, summary and usage, loaded for `--help` without the command's implementation. */
import type { CommandHelp } from '../command';

export const keysHelp: CommandHelp = {
  name: 'keys',
  summary: 'create, list and revoke tenant API keys for the gateway',
  usage: `usage: wayfinder keys create --tenant T [--role operator|viewer]
       wayfinder keys list --tenant T
       wayfinder keys revoke --tenant T KEYID
  [--mode embedded|distributed] [--redis URL]

Tenant API keys for the gateway (Authorization: Bearer <key>). Stored hashed (SHA-256): create prints the
key once, on stdout; list shows key ids and roles, never keys; revoke stops a key at once.
  --role    operator (default): reads and acts (resume, ack, false positives, policy set, steps, tasks);
            viewer: reads the query API and the dashboard only (anything else → 403 naming the role)
  --mode    embedded (default): .wayfinder/keys.json in the working directory;
            distributed: Redis (env WAYFINDER_REDIS_URL), namespaced by WAYFINDER_TOPIC_PREFIX
  --redis   Redis URL (distributed mode)`,
};
