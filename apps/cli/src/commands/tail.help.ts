/** `wayfinder tail`: name, summary and usage, loaded for `--help` without the command's implementation. */
import type { CommandHelp } from '../command';

export const tailHelp: CommandHelp = {
  name: 'tail',
  summary: 'follow deviations, corrections, escalations or would-send records (Kafka, or the gateway)',
  usage: `usage: wayfinder tail deviations|corrections|escalations|would-send [--agent A] [--key KEY] [--tenant T]
                     [--kafka BROKERS] [--redis URL] | [--gateway URL]

Prints each new event of the key's tenant as a JSON line until Ctrl-C (would-send: what shadow-mode
agents would have received). With Kafka configured (--kafka, --redis, WAYFINDER_KAFKA_BROKERS or
WAYFINDER_MODE=distributed) it follows the topic (names get WAYFINDER_TOPIC_PREFIX); otherwise, or with
--gateway, the gateway's fleet stream (GET /v1/fleet/events), printing the history's records.
  --key      the tenant's API key (env WAYFINDER_KEY): decides the tenant (WAYFINDER_API_KEYS, then the
             Redis key store); none in local mode
  --gateway  the gateway (env WAYFINDER_GATEWAY_URL, default http://127.0.0.1:7070)
  --tenant   with Kafka: refused unless it is the key's tenant; through the gateway: the local operator's
             tenant (with a key, the gateway refuses another than the key's)
  --agent    only this agent's events`,
};
