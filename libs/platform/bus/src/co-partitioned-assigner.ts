/**
 * The partition assignor of every Wayfinder consumer group: partition p of every topic goes to the same
 * member (members sorted, p mod their count). The agent-keyed topics have the same partition count and
 * key, so an agent's localized steps and its deviations land on the same correction-engine instance,
 * which needs both to climb its ladder. kafkajs' default round-robin deals the partitions of all topics
 * out in one sequence, which splits them whenever the member count does not divide the partitions.
 */
import { AssignerProtocol, type PartitionAssigner } from 'kafkajs';

export const CO_PARTITIONED_ASSIGNER = 'WayfinderCoPartitioned';

export const coPartitionedAssigner: PartitionAssigner = ({ cluster }) => ({
  name: CO_PARTITIONED_ASSIGNER,
  version: 0,
  async assign({ members, topics }) {
    const sorted = members.map((m) => m.memberId).sort();
    const assignment = new Map<string, Record<string, number[]>>(sorted.map((id) => [id, {}]));
    for (const topic of topics) {
      for (const { partitionId } of cluster.findTopicPartitionMetadata(topic)) {
        const owned = assignment.get(sorted[partitionId % sorted.length])!;
        (owned[topic] ??= []).push(partitionId);
      }
    }
    return [...assignment].map(([memberId, owned]) => ({
      memberId,
      memberAssignment: AssignerProtocol.MemberAssignment.encode({ version: 0, assignment: owned, userData: Buffer.alloc(0) }),
    }));
  },
  protocol({ topics }) {
    return { name: CO_PARTITIONED_ASSIGNER, metadata: AssignerProtocol.MemberMetadata.encode({ version: 0, topics, userData: Buffer.alloc(0) }) };
  },
});
