/** `wayfinder tail`: name, summary and usage, loaded for `--help` without the command's implementation. */
import type { CommandHelp } from '../command';

export const tailHelp: CommandHelp = {
  name: 'tail',
  summary: 'follow deviations, corrections, escalations or would-send records on Kafka',
  usage: `usage: wayfinder tail deviations|corrections|escalations|would-send [--agent A] [--key KEY] [--tenant T] [--kafka BROKERS] [--redis URL]

Prints each new event of the key's tenant on the topic as a JSON line until Ctrl-C (would-send: what
shadow-mode agents would have received). Topic names get WAYFINDER_TOPIC_PREFIX.
  --key     the tenant's API key (env WAYFINDER_KEY): decides the tenant (WAYFINDER_API_KEYS, then the
            Redis key store)
  --tenant  optional check: refused unless it is the key's tenant
  --agent   only this agent's events`,
};
