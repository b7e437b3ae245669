// Every member of a group owns the same partition numbers of every topic, whatever the member count,
// so an agent's localized steps and deviations (same key, same partition count) meet on one instance.
import { AssignerProtocol, type Cluster, type Logger } from 'kafkajs';
import { coPartitionedAssigner } from './co-partitioned-assigner';

function clusterWith(partitions: Record<string, number>): Cluster {
  return {
    findTopicPartitionMetadata: (topic: string) => Array.from({ length: partitions[topic] }, (_, partitionId) => ({ partitionId })),
  } as unknown as Cluster;
}

async function assign(memberCount: number, partitions: Record<string, number>): Promise<Map<string, Record<string, number[]>>> {
  const assigner = coPartitionedAssigner({ cluster: clusterWith(partitions), groupId: 'g', logger: {} as Logger });
  const members = Array.from({ length: memberCount }, (_, i) => ({ memberId: `member-${String.fromCharCode(97 + ((i * 7) % 26))}`, memberMetadata: Buffer.alloc(0) }));
  const result = await assigner.assign({ members, topics: Object.keys(partitions) });
  return new Map(result.map((r) => [r.memberId, AssignerProtocol.MemberAssignment.decode(r.memberAssignment)!.assignment]));
}

describe('co-partitioned assigner', () => {
  it.each([1, 2, 3, 4, 5, 7, 12, 13])('with %i members, each owns the same partitions of both agent-keyed topics, each partition once', async (count) => {
    const owned = await assign(count, { 'wayfinder.localized.v1': 12, 'wayfinder.deviations.v1': 12 });
    const seen = { localized: [] as number[], deviations: [] as number[] };
    for (const topics of owned.values()) {
      expect(topics['wayfinder.localized.v1'] ?? []).toEqual(topics['wayfinder.deviations.v1'] ?? []);
      seen.localized.push(...(topics['wayfinder.localized.v1'] ?? []));
      seen.deviations.push(...(topics['wayfinder.deviations.v1'] ?? []));
    }
    const all = Array.from({ length: 12 }, (_, i) => i);
    expect(seen.localized.sort((a, b) => a - b)).toEqual(all);
    expect(seen.deviations.sort((a, b) => a - b)).toEqual(all);
    // Balanced: nobody holds more than one partition more than anybody else.
    const sizes = [...owned.values()].map((t) => (t['wayfinder.localized.v1'] ?? []).length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it('gives every member an assignment, even one with nothing to own', async () => {
    const owned = await assign(3, { 'wayfinder.policies.v1': 1 });
    expect(owned.size).toBe(3);
    expect([...owned.values()].filter((t) => t['wayfinder.policies.v1']?.length === 1)).toHaveLength(1);
  });
});
