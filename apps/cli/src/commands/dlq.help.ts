/** `wayfinder dlq`: name, summary and usage, loaded for `--help` without the command's implementation. */
import type { CommandHelp } from '../command';

export const dlqHelp: CommandHelp = {
  name: 'dlq',
  summary: "list or replay the key's tenant's dead letters of a topic (Kafka)",
  usage: `usage: wayfinder dlq list TOPIC [--since ISO|DURATION] [--limit N] [--format table|jsonl] [--key KEY]
       wayfinder dlq replay TOPIC [--since ISO|DURATION] [--key KEY]
  [--kafka BROKERS] [--redis URL]

The dead letters of the key's tenant on TOPIC.dlq (TOPIC like wayfinder.steps.v1), read from Kafka.
  list     each dead letter: its place on the DLQ, when, source topic/partition/offset, attempts, event
           id, whether it was replayed, and the error (--format jsonl: one JSON object each)
  replay   re-publishes each one not replayed yet to TOPIC (same key, same bytes, so the same eventId:
           processed once) and marks it replayed (Redis), so a second replay sends nothing; records
           that still fail TOPIC's schema are reported and not sent. Needs an operator key.
  --since  only dead letters from this time on: an ISO time (2026-12-01T10:00:00Z) or a duration back
           from now (90s, 30m, 2h, 7d)
  --limit  list at most N, the newest (default 100)
  --key    the tenant's API key (env WAYFINDER_KEY): decides the tenant
Topic names get WAYFINDER_TOPIC_PREFIX; brokers WAYFINDER_KAFKA_BROKERS, Redis WAYFINDER_REDIS_URL.`,
};
