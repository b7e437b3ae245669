/**
 * patches/kafkajs+2.2.4.patch also rewrites two per-message steps of kafkajs' produce path that showed in
 * the pipeline's profile (issue #17): grouping a request's messages by partition appended to a copy of the
 * partition's array for every message (O(n²) per request), and each record was built from a spread of its
 * message. Same results: every message in its partition, in publish order; on the broker, the bus
 * contract suite round-trips keys, values and headers.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const groupMessagesPerPartition = require('kafkajs/src/producer/groupMessagesPerPartition') as (args: {
  topic: string;
  partitionMetadata: Array<{ partitionId: number }>;
  messages: Array<{ key: string; value: string }>;
  partitioner: (args: { message: { key: string } }) => number;
}) => Record<string, Array<{ key: string; value: string }>>;

describe("kafkajs' groupMessagesPerPartition (patched)", () => {
  const partitionMetadata = [0, 1, 2].map((partitionId) => ({ partitionId }));
  const partitioner = ({ message }: { message: { key: string } }) => Number(message.key.slice(1)) % 3;

  it('puts every message in its partition, in publish order', () => {
    const messages = Array.from({ length: 3_000 }, (_, i) => ({ key: `k${i % 7}`, value: `v${i}` }));
    const grouped = groupMessagesPerPartition({ topic: 't', partitionMetadata, messages, partitioner });
    expect(Object.keys(grouped).sort()).toEqual(['0', '1', '2']);
    for (const [partition, list] of Object.entries(grouped)) {
      expect(list).toEqual(messages.filter((m) => partitioner({ message: m }) === Number(partition)));
    }
    expect(Object.values(grouped).reduce((n, list) => n + list.length, 0)).toBe(messages.length);
  });

  it('gives nothing for a topic without partition metadata', () => {
    expect(groupMessagesPerPartition({ topic: 't', partitionMetadata: [], messages: [{ key: 'k1', value: 'v' }], partitioner })).toEqual({});
  });
});
