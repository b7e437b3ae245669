// The topic plan: every registry topic plus its DLQ, partitions and compaction from TOPICS, prefixing.
import { TOPIC_NAMES, TOPICS } from '@wayfinder/contracts';
import { DLQ_RETENTION_MS, topicPlan } from './topic-admin';

const planned = (plan: ReturnType<typeof topicPlan>, topic: string) => {
  const found = plan.find((t) => t.topic === topic);
  if (!found) throw new Error(`${topic} is not planned`);
  return found;
};
const configOf = (entries: Array<{ name: string; value: string }> | undefined) =>
  Object.fromEntries((entries ?? []).map((e) => [e.name, e.value]));

describe('topicPlan', () => {
  it('plans every registry topic and its .dlq with the registry partitions, compaction and retention', () => {
    const plan = topicPlan();
    expect(plan.map((t) => t.topic).sort()).toEqual(TOPIC_NAMES.flatMap((n) => [n, `${n}.dlq`]).sort());

    const maps = planned(plan, 'wayfinder.maps.v1');
    expect(maps.numPartitions).toBe(TOPICS['wayfinder.maps.v1'].partitions);
    expect(configOf(maps.configEntries)).toEqual({ 'cleanup.policy': 'compact' });

    const steps = planned(plan, 'wayfinder.steps.v1');
    expect(steps.numPartitions).toBe(12);
    expect(configOf(steps.configEntries)).toEqual({ 'cleanup.policy': 'delete', 'retention.ms': String(TOPICS['wayfinder.steps.v1'].retentionMs) });

    const dlq = planned(plan, 'wayfinder.policies.v1.dlq');
    expect(dlq.numPartitions).toBe(1);
    expect(configOf(dlq.configEntries)).toEqual({ 'cleanup.policy': 'delete', 'retention.ms': String(DLQ_RETENTION_MS) });
  });

  it('applies a prefix, a partition override (not to DLQs) and a topic selection', () => {
    const plan = topicPlan({ topicPrefix: 'dev.', partitionsOverride: 2, only: ['wayfinder.policies.v1'] });
    expect(plan.map((t) => [t.topic, t.numPartitions])).toEqual([
      ['dev.wayfinder.policies.v1', 2],
      ['dev.wayfinder.policies.v1.dlq', 1],
    ]);
  });
});
