/** `wayfinder topics`: name, summary and usage, loaded for `--help` without the command's implementation. */
import type { CommandHelp } from '../command';

export const topicsHelp: CommandHelp = {
  name: 'topics',
  summary: 'create the topics on a Kafka cluster (topics create)',
  usage: `usage: wayfinder topics create [--kafka BROKERS] [--partitions N]

Creates every Wayfinder topic (partitions, compaction, retention) and its <topic>.dlq on the cluster.
Existing topics are left as they are, so running it twice is fine.
  --kafka       bootstrap brokers host:port[,host:port] (env WAYFINDER_KAFKA_BROKERS, default 127.0.0.1:9092)
  --partitions  override the partition count of the per-agent topics (e.g. 1 on a laptop)
Names get the WAYFINDER_TOPIC_PREFIX in front, as the services use them.`,
};
