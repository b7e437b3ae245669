// What PlatformaticBus must agree on with KafkaBus so that the two clients can share topics and groups:
// an agent's key lands on the same partition (kafkajs' DefaultPartitioner = @platformatic/kafka's
// compatibilityPartitioner), the co-partitioned assignment gives the same member the same partitions,
// and the TLS/SASL settings of @wayfinder/config reach the client in its own shape.
import { AssignerProtocol, Partitioners, type Cluster, type Logger } from 'kafkajs';
import { coPartitionedAssigner as kafkajsAssigner } from './co-partitioned-assigner';
import { createKafkaBus } from './kafka-client';
import { KafkaBus } from './kafka.bus';
import { coPartitionedAssigner, platformaticKafka, platformaticSecurityOf, PlatformaticBus } from './platformatic.bus';

describe('PlatformaticBus beside KafkaBus', () => {
  it('puts every key on the partition kafkajs puts it on', () => {
    const kafkajs = Partitioners.DefaultPartitioner();
    const { compatibilityPartitioner } = platformaticKafka();
    for (const partitions of [1, 6, 12, 13]) {
      const partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({ partitionId, partitionErrorCode: 0, leader: 1, replicas: [1], isr: [1], offlineReplicas: [] }));
      for (let i = 0; i < 500; i++) {
        const key = `tenant-${i % 7}:agent-${i}`;
        const expected = kafkajs({ topic: 't', partitionMetadata, message: { key, value: 'v' } });
        const ours = compatibilityPartitioner({ topic: 't', key: Buffer.from(key) }, Buffer.from(key)) % partitions;
        expect(ours).toBe(expected);
      }
    }
  });

  it.each([1, 2, 3, 5])('assigns the same partitions of every topic to the same members as KafkaBus (%i members)', async (count) => {
    const topics = { 'wayfinder.localized.v1': 12, 'wayfinder.deviations.v1': 12, 'wayfinder.policies.v1': 1 };
    const memberIds = Array.from({ length: count }, (_, i) => `member-${String.fromCharCode(97 + ((i * 7) % 26))}`);
    const cluster = { findTopicPartitionMetadata: (t: keyof typeof topics) => Array.from({ length: topics[t] }, (_, partitionId) => ({ partitionId })) } as unknown as Cluster;
    const theirs = await kafkajsAssigner({ cluster, groupId: 'g', logger: {} as Logger }).assign({
      members: memberIds.map((memberId) => ({ memberId, memberMetadata: Buffer.alloc(0) })),
      topics: Object.keys(topics),
    });
    const expected = new Map(theirs.map((r) => [r.memberId, AssignerProtocol.MemberAssignment.decode(r.memberAssignment)!.assignment]));
    const metadata = { topics: new Map(Object.entries(topics).map(([t, partitionsCount]) => [t, { partitionsCount }])) } as never;
    const members = new Map(memberIds.map((memberId) => [memberId, { memberId, version: 0 }]));
    const ours = coPartitionedAssigner(memberIds[0], members, new Set(Object.keys(topics)), metadata);
    expect(ours.map((a) => a.memberId).sort()).toEqual([...expected.keys()].sort());
    for (const { memberId, assignments } of ours) {
      expect(Object.fromEntries([...assignments].map(([t, a]) => [t, a.partitions]))).toEqual(expected.get(memberId));
    }
  });

  it('maps TLS and SASL from the kafkajs shape of @wayfinder/config', () => {
    expect(platformaticSecurityOf(undefined)).toEqual({});
    expect(platformaticSecurityOf({ ssl: true })).toEqual({ tls: {} });
    expect(platformaticSecurityOf({ ssl: { rejectUnauthorized: false, ca: ['pem'] } })).toEqual({ tls: { rejectUnauthorized: false, ca: ['pem'] } });
    expect(platformaticSecurityOf({ sasl: { mechanism: 'scram-sha-512', username: 'u', password: 'p' } })).toEqual({ sasl: { mechanism: 'SCRAM-SHA-512', username: 'u', password: 'p' } });
  });

  it('is what createKafkaBus builds for platformatic, and kafkajs stays the other choice', () => {
    expect(createKafkaBus('platformatic', { brokers: ['127.0.0.1:9092'] })).toBeInstanceOf(PlatformaticBus);
    expect(createKafkaBus('kafkajs', { brokers: ['127.0.0.1:9092'] })).toBeInstanceOf(KafkaBus);
  });
});
