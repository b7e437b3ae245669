/**
 * The contract every Bus adapter passes (STYLE "Every adapter of a port passes the same contract test
 * suite"): in-process.bus.spec.ts runs it on InProcessBus, kafka.bus.int-spec.ts on a real broker.
 * A "space" is an isolated transport namespace: buses opened on the same space see the same topics and
 * consumer groups, like processes sharing one Kafka cluster.
 */
import { DLQ_HEADERS, dlqTopicOf, type StepEvent } from '@wayfinder/contracts';
import type { Bus, Delivered } from './bus';

export interface BusHarness {
  /** A fresh isolated space with the steps topic and its DLQ. */
  newSpace(): Promise<string>;
  /** A bus client on a space. Retries use short backoffs and at most 3 attempts. */
  open(space: string): Bus;
  /** How long to wait for deliveries (a broker needs longer than memory). */
  readonly waitMs: number;
}

const STEPS = 'wayfinder.steps.v1' as const;
const STEPS_DLQ = dlqTopicOf(STEPS);

export function stepEvent(agentId: string, seq: number, tenantId = 'tenant-a'): StepEvent {
  return {
    schema: 'wayfinder.step.v1',
    eventId: `${tenantId}-${agentId}-${seq}`,
    tenantId,
    ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq % 60)).toISOString(),
    agentId,
    taskId: 'task-1',
    seq,
    kind: 'action',
    action: { tool: 'search', args: { q: `query ${seq}` } },
  };
}

export async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const idOf = (d: Delivered<StepEvent>) => `${d.payload.agentId}#${d.payload.seq}`;

export function busContract(name: string, harness: () => BusHarness): void {
  describe(`Bus contract: ${name}`, () => {
    let open: Bus[] = [];
    const bus = (space: string) => {
      const b = harness().open(space);
      open.push(b);
      return b;
    };

    afterEach(async () => {
      await Promise.all(open.map((b) => b.stop()));
      open = [];
    });

    it('delivers in batches, in publish order per key, with topic, key, partition, offset and headers', async () => {
      const space = await harness().newSpace();
      const b = bus(space);
      const batches: Delivered<StepEvent>[][] = [];
      b.subscribe(STEPS, async (batch) => void batches.push(batch), { groupId: 'order' });
      for (let seq = 0; seq < 30; seq++) {
        await b.publish(STEPS, ['a1', 'a2', 'a3'].map((agent) => stepEvent(agent, seq)), { headers: { 'x-trace': `t${seq}` } });
      }
      await b.start();
      const received = () => batches.flat();
      await waitFor(() => received().length >= 90, harness().waitMs, '90 deliveries');

      expect(received()).toHaveLength(90);
      expect(batches.some((batch) => batch.length > 1)).toBe(true);
      for (const agent of ['a1', 'a2', 'a3']) {
        const seqs = received().filter((d) => d.payload.agentId === agent).map((d) => d.payload.seq);
        expect(seqs).toEqual(Array.from({ length: 30 }, (_, i) => i));
      }
      const sample = received().find((d) => d.payload.agentId === 'a2' && d.payload.seq === 7);
      expect(sample).toMatchObject({ topic: STEPS, key: 'tenant-a:a2', headers: { 'x-trace': 't7' } });
      expect(sample?.partition).toEqual(expect.any(Number));
      expect(sample?.offset).toMatch(/^\d+$/);
      for (const batch of batches) expect(new Set(batch.map((d) => d.partition)).size).toBe(1);
    });

    it('lays per-message headers over the call headers', async () => {
      const space = await harness().newSpace();
      const b = bus(space);
      const received: Delivered<StepEvent>[] = [];
      b.subscribe(STEPS, async (batch) => void received.push(...batch), { groupId: 'headers' });
      await b.publish(STEPS, [stepEvent('h1', 0), stepEvent('h1', 1)], {
        headers: { shared: 'yes', own: 'call' },
        headersFor: (i) => (i === 1 ? { own: 'message-1' } : undefined),
      });
      await b.start();
      await waitFor(() => received.length >= 2, harness().waitMs, '2 deliveries');
      expect(received.map((d) => [d.payload.seq, d.headers['shared'], d.headers['own']])).toEqual([
        [0, 'yes', 'call'],
        [1, 'yes', 'message-1'],
      ]);
    });

    it('sends invalid JSON and schema violations to <topic>.dlq with the original bytes and the reason', async () => {
      const space = await harness().newSpace();
      const b = bus(space);
      const valid: Delivered<StepEvent>[] = [];
      const dead: Delivered<Buffer>[] = [];
      b.subscribe(STEPS, async (batch) => void valid.push(...batch), { groupId: 'dlq-steps' });
      b.subscribeRaw(STEPS_DLQ, async (batch) => void dead.push(...batch), { groupId: 'dlq-reader' });
      await b.start();

      const notJson = '{"schema":"wayfinder.step.v1", oops';
      const badTool = JSON.stringify({ ...stepEvent('a1', 1), action: { tool: '', args: {} } });
      await b.publishRaw(STEPS, 'tenant-a:a1', stepEventBytes('a1', 0), { 'x-origin': 'test' });
      await b.publishRaw(STEPS, 'tenant-a:a1', notJson, { 'x-origin': 'test' });
      await b.publishRaw(STEPS, 'tenant-a:a1', Buffer.from(badTool, 'utf8'));
      await b.publish(STEPS, [stepEvent('a1', 2)]);
      await waitFor(() => valid.length >= 2 && dead.length >= 2, harness().waitMs, 'valid and dead-lettered messages');

      expect(valid.map((d) => d.payload.seq)).toEqual([0, 2]);
      expect(dead).toHaveLength(2);
      const [json, schema] = dead;
      expect(json.payload.toString('utf8')).toBe(notJson);
      expect(schema.payload.toString('utf8')).toBe(badTool);
      expect(json.key).toBe('tenant-a:a1');
      expect(json.headers[DLQ_HEADERS.error]).toMatch(/^invalid JSON/);
      expect(schema.headers[DLQ_HEADERS.error]).toMatch(/^schema violation: .*action\.tool/);
      for (const letter of dead) {
        expect(letter.topic).toBe(STEPS_DLQ);
        expect(letter.headers[DLQ_HEADERS.sourceTopic]).toMatch(/wayfinder\.steps\.v1$/);
        expect(letter.headers[DLQ_HEADERS.sourcePartition]).toMatch(/^\d+$/);
        expect(letter.headers[DLQ_HEADERS.attempts]).toBe('1');
        expect(Number.isNaN(Date.parse(letter.headers[DLQ_HEADERS.timestamp]))).toBe(false);
      }
      expect(json.headers['x-origin']).toBe('test');
      expect(Number(schema.headers[DLQ_HEADERS.sourceOffset])).toBeGreaterThan(Number(json.headers[DLQ_HEADERS.sourceOffset]));
    });

    it('retries a failing batch and dead-letters only the message that keeps failing', async () => {
      const space = await harness().newSpace();
      const b = bus(space);
      const handled: number[] = [];
      const dead: Delivered<Buffer>[] = [];
      let transientFailures = 2;
      b.subscribe(
        STEPS,
        async (batch) => {
          if (transientFailures-- > 0) throw new Error('store unavailable');
          if (batch.some((d) => d.payload.seq === 5)) throw new Error('cannot handle seq 5');
          handled.push(...batch.map((d) => d.payload.seq));
        },
        { groupId: 'retry' },
      );
      b.subscribeRaw(STEPS_DLQ, async (batch) => void dead.push(...batch), { groupId: 'retry-dlq' });
      await b.publish(STEPS, Array.from({ length: 10 }, (_, seq) => stepEvent('a1', seq)));
      await b.start();
      await waitFor(() => dead.length >= 1 && new Set(handled).size >= 9, harness().waitMs, 'retries and the poison message');

      expect([...new Set(handled)].sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 6, 7, 8, 9]);
      expect(dead).toHaveLength(1);
      expect(JSON.parse(dead[0].payload.toString('utf8')).seq).toBe(5);
      expect(dead[0].headers[DLQ_HEADERS.error]).toBe('handler failed: cannot handle seq 5');
      expect(dead[0].headers[DLQ_HEADERS.attempts]).toBe('3');
    });

    it('retries a failing raw handler (e.g. a DLQ reader) instead of dead-lettering its input', async () => {
      const space = await harness().newSpace();
      const b = bus(space);
      const read: string[] = [];
      let failures = 4;
      b.subscribeRaw(
        STEPS_DLQ,
        async (batch) => {
          if (failures-- > 0) throw new Error('archive unavailable');
          read.push(...batch.map((d) => d.payload.toString('utf8')));
        },
        { groupId: 'dlq-archiver' },
      );
      await b.publishRaw(STEPS_DLQ, 'tenant-a:a1', 'dead one');
      await b.start();
      await waitFor(() => read.length >= 1, harness().waitMs, 'the raw message');

      expect(read).toEqual(['dead one']);
      expect(failures).toBe(-1);
    });

    it('delivers each message once per consumer group, sharing partitions between members of a group', async () => {
      const space = await harness().newSpace();
      const members = [bus(space), bus(space)];
      const other = bus(space);
      const shared: Delivered<StepEvent>[] = [];
      const alone: Delivered<StepEvent>[] = [];
      for (const member of members) member.subscribe(STEPS, async (batch) => void shared.push(...batch), { groupId: 'shared' });
      other.subscribe(STEPS, async (batch) => void alone.push(...batch), { groupId: 'alone' });
      await Promise.all([...members, other].map((b) => b.start()));

      const agents = Array.from({ length: 12 }, (_, i) => `agent-${i}`);
      for (let seq = 0; seq < 10; seq++) await other.publish(STEPS, agents.map((a) => stepEvent(a, seq)));
      await waitFor(() => shared.length >= 120 && alone.length >= 120, harness().waitMs, 'both groups');
      await new Promise((resolve) => setTimeout(resolve, 200));

      expect(new Set(shared.map(idOf)).size).toBe(120);
      expect(shared).toHaveLength(120);
      expect(new Set(alone.map(idOf)).size).toBe(120);
      expect(alone).toHaveLength(120);
    });

    it('stop() finishes the batch in flight and commits it: a restarted consumer resumes after it', async () => {
      const space = await harness().newSpace();
      const first = bus(space);
      const handledFirst: string[] = [];
      let inFlight = false;
      let finishedWhileStopping = false;
      let stopping = false;
      first.subscribe(
        STEPS,
        async (batch) => {
          inFlight = true;
          await new Promise((resolve) => setTimeout(resolve, 300));
          handledFirst.push(...batch.map(idOf));
          if (stopping) finishedWhileStopping = true;
          inFlight = false;
        },
        { groupId: 'restart', maxBatchSize: 10 },
      );
      await first.publish(STEPS, Array.from({ length: 100 }, (_, seq) => stepEvent('a1', seq)));
      await first.start();
      await waitFor(() => inFlight && handledFirst.length >= 10, harness().waitMs, 'a batch in flight');
      stopping = true;
      await first.stop();
      expect(inFlight).toBe(false);
      expect(finishedWhileStopping).toBe(true);
      expect(handledFirst.length).toBeLessThan(100);

      const second = bus(space);
      const handledSecond: string[] = [];
      second.subscribe(STEPS, async (batch) => void handledSecond.push(...batch.map(idOf)), { groupId: 'restart' });
      await second.start();
      await waitFor(() => handledFirst.length + handledSecond.length >= 100, harness().waitMs, 'the rest after restart');
      await new Promise((resolve) => setTimeout(resolve, 200));

      expect(handledSecond.filter((id) => handledFirst.includes(id))).toEqual([]);
      expect(new Set([...handledFirst, ...handledSecond]).size).toBe(100);
      expect(handledSecond[0]).toBe(`a1#${handledFirst.length}`);
    });
  });
}

function stepEventBytes(agentId: string, seq: number): Buffer {
  return Buffer.from(JSON.stringify(stepEvent(agentId, seq)), 'utf8');
}
