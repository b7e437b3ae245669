/**
 * Observers of a fused topic (issue #17: the history recorder and the memory service reading localized
 * steps in process, InProcessEdges' `observers`): they get each batch once, at the same time as the
 * navigation readers (their writes overlap the stages', they do not follow them), the publisher's batch
 * waits for their writes, so a failure or a crash before the steps commit re-delivers the steps, and a
 * local topic reaches only its in-process readers. Their subscriptions to other topics stay on the
 * inner bus, and they follow the upstream consumer's rebalances.
 */
import type { LocalizedStep, StepEvent } from '@wayfinder/contracts';
import type { AssignmentListener, Bus } from './bus';
import { FusedBus, InProcessEdges } from './fused.bus';
import { InProcessBroker, InProcessBus } from './in-process.bus';

const TS = '2026-01-01T00:00:00.000Z';

function step(seq: number, agent = `a${seq % 3}`): StepEvent {
  return { schema: 'wayfinder.step.v1', eventId: `e${seq}`, tenantId: 't', agentId: agent, taskId: 'k', seq, ts: TS, kind: 'message', message: { role: 'assistant', text: `m${seq}` } };
}

function localizedOf(s: StepEvent): LocalizedStep {
  return { schema: 'wayfinder.localized.v1', eventId: `l-${s.eventId}`, tenantId: s.tenantId, ts: s.ts, step: s, position: { milestoneId: null, completed: [], progress: 0, confidence: 0, method: 'unknown' } };
}

const LOCALIZED = 'wayfinder.localized.v1';
const DEVIATIONS = 'wayfinder.deviations.v1';

function edgesWith(local = false): InProcessEdges {
  return new InProcessEdges([LOCALIZED, DEVIATIONS], { groups: ['detector', 'correction'], observers: { [LOCALIZED]: ['history', 'memory'] }, local: local ? [LOCALIZED] : [] });
}

/** The localizer: each steps batch published as localized steps through the fused bus, inside the batch. */
function localizer(bus: Bus, done: string[]): void {
  bus.subscribe(
    'wayfinder.steps.v1',
    async (batch) => {
      await bus.publish(LOCALIZED, batch.map((d) => localizedOf(d.payload)));
      done.push(...batch.map((d) => d.payload.eventId));
    },
    { groupId: 'localizer' },
  );
}

/** Checks the ids are exactly `count` steps, each once, in seq order per agent (partitions interleave agents). */
function expectEachOnceInAgentOrder(ids: readonly string[] | undefined, count: number): void {
  const seqs = (ids ?? []).map((id) => Number(id.slice('l-e'.length)));
  expect([...seqs].sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => i));
  for (let agent = 0; agent < 3; agent++) {
    const own = seqs.filter((seq) => seq % 3 === agent);
    expect(own).toEqual([...own].sort((a, b) => a - b));
  }
}

async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  for (const started = Date.now(); !condition(); await new Promise((r) => setTimeout(r, 5))) {
    if (Date.now() - started > ms) throw new Error(`timed out: ${what}`);
  }
}

describe('observers of a fused topic', () => {
  it('get each localized step once, beside the navigation readers, and the steps batch waits for their writes', async () => {
    const bus = new FusedBus(new InProcessBus(), edgesWith());
    const events: string[] = [];
    const written = new Map<string, string[]>([['history', []], ['memory', []]]);
    const navigation: string[] = [];
    let observersStarted = 0;
    let releaseObservers!: () => void;
    const observersMayFinish = new Promise<void>((r) => (releaseObservers = r));
    // The correction engine reads another fused topic, so it is the first ordered reader: it finishes only
    // once both observers have started, which they do only if they get the batch at once, not after it.
    bus.subscribe(
      LOCALIZED,
      async (batch) => {
        await until(() => observersStarted >= 2, 2_000, 'the observers to start beside the correction engine');
        navigation.push(...batch.map((d) => `correction ${d.payload.eventId}`));
        events.push('correction done');
      },
      { groupId: 'correction' },
    );
    bus.subscribe(DEVIATIONS, async () => undefined, { groupId: 'correction' });
    bus.subscribe(LOCALIZED, async (batch) => void navigation.push(...batch.map((d) => `detector ${d.payload.eventId}`)), { groupId: 'detector' });
    for (const observer of ['history', 'memory']) {
      bus.subscribe(
        LOCALIZED,
        async (batch) => {
          observersStarted++;
          await observersMayFinish; // a Redis write still in flight
          written.get(observer)!.push(...batch.map((d) => d.payload.eventId));
          events.push(`${observer} written`);
        },
        { groupId: observer },
      );
    }
    const committed: string[] = [];
    localizer(bus, committed);
    await bus.start();
    try {
      const steps = Array.from({ length: 30 }, (_, i) => step(i));
      await bus.publish('wayfinder.steps.v1', steps);
      await until(() => events.includes('correction done'), 2_000, 'the correction engine');
      await new Promise((r) => setTimeout(r, 50));
      // The navigation readers are done, the observers' writes are not: the steps batch is not done either.
      expect(committed).toEqual([]);
      releaseObservers();
      await until(() => committed.length === steps.length, 2_000, 'the steps batch');
      expectEachOnceInAgentOrder(written.get('history'), steps.length);
      expectEachOnceInAgentOrder(written.get('memory'), steps.length);
      expect(navigation.filter((n) => n.startsWith('correction')).length).toBe(steps.length);
      expect(navigation.filter((n) => n.startsWith('detector')).length).toBe(steps.length);
    } finally {
      releaseObservers();
      await bus.stop();
    }
  });

  it('a crash before the steps commit re-delivers them to the observer, which then records each once', async () => {
    const broker = new InProcessBroker();
    const stored = new Set<string>(); // the observer's durable, idempotent records (history: SET NX by id)
    const seen: string[][] = [[], []];
    const failing = new FusedBus(new InProcessBus({ broker, retry: { initialBackoffMs: 60_000, maxAttempts: 5 } }), edgesWith());
    failing.subscribe(LOCALIZED, async () => undefined, { groupId: 'detector' });
    failing.subscribe(
      LOCALIZED,
      async (batch) => {
        seen[0]!.push(...batch.map((d) => d.payload.eventId));
        stored.add(batch[0]!.payload.eventId); // part of the batch written, then Redis fails
        throw new Error('history store: connection lost');
      },
      { groupId: 'history' },
    );
    const firstDone: string[] = [];
    localizer(failing, firstDone);
    await failing.start();
    await failing.publish('wayfinder.steps.v1', Array.from({ length: 10 }, (_, i) => step(i)));
    await until(() => seen[0]!.length > 0, 2_000, 'the first delivery');
    await failing.stop(); // the process dies while the batch waits for its retry: nothing committed
    expect(firstDone).toEqual([]);

    const restarted = new FusedBus(new InProcessBus({ broker }), edgesWith());
    restarted.subscribe(LOCALIZED, async () => undefined, { groupId: 'detector' });
    restarted.subscribe(
      LOCALIZED,
      async (batch) => {
        seen[1]!.push(...batch.map((d) => d.payload.eventId));
        for (const d of batch) stored.add(d.payload.eventId);
      },
      { groupId: 'history' },
    );
    const secondDone: string[] = [];
    localizer(restarted, secondDone);
    await restarted.start();
    try {
      await until(() => secondDone.length === 10, 2_000, 'the re-delivered steps batch');
      const ids = Array.from({ length: 10 }, (_, i) => `l-e${i}`);
      expectEachOnceInAgentOrder(seen[1], 10); // every step again, each once
      expect([...stored].sort()).toEqual([...ids].sort());
    } finally {
      await restarted.stop();
    }
  });

  it('a failing observer fails the publish, after every other reader has settled', async () => {
    const bus = new FusedBus(new InProcessBus(), edgesWith());
    let detectorDone = false;
    bus.subscribe(
      LOCALIZED,
      async () => {
        await new Promise((r) => setTimeout(r, 30));
        detectorDone = true;
      },
      { groupId: 'detector' },
    );
    bus.subscribe(
      LOCALIZED,
      async () => {
        throw new Error('memory trails: version conflict');
      },
      { groupId: 'memory' },
    );
    await expect(bus.publish(LOCALIZED, [localizedOf(step(1))])).rejects.toThrow('memory trails: version conflict');
    expect(detectorDone).toBe(true);
  });

  it("keep their other topics on the inner bus, and a local topic reaches only the process's readers", async () => {
    const broker = new InProcessBroker();
    const outside = new InProcessBus({ broker });
    const got: string[] = [];
    outside.subscribe(LOCALIZED, async (batch) => void got.push(...batch.map((d) => d.payload.eventId)), { groupId: 'tail' });
    await outside.start();
    const published = new FusedBus(new InProcessBus({ broker }), edgesWith());
    const local = new FusedBus(new InProcessBus({ broker }), edgesWith(true));
    const read: string[] = [];
    local.subscribe(LOCALIZED, async (batch) => void read.push(...batch.map((d) => d.payload.eventId)), { groupId: 'history' });
    try {
      await local.publish(LOCALIZED, [localizedOf(step(1))]);
      expect(read).toEqual(['l-e1']);
      await published.publish(LOCALIZED, [localizedOf(step(2))]);
      await until(() => got.length > 0, 2_000, 'the published output');
      await new Promise((r) => setTimeout(r, 30));
      expect(got).toEqual(['l-e2']); // the local one never reached the topic
      // The observer's deviations subscription is not served in process (it stays on the inner bus).
      expect(edgesWith().serves(DEVIATIONS, 'history')).toBe(false);
      expect(edgesWith().serves(LOCALIZED, 'history')).toBe(true);
      expect(edgesWith().serves(LOCALIZED, 'tail')).toBe(false);
    } finally {
      await outside.stop();
    }
    expect(() => new InProcessEdges([DEVIATIONS], { observers: { [LOCALIZED]: ['history'] } })).toThrow('wayfinder.localized.v1 is not a fused topic');
  });

  it("follow the upstream consumer's rebalances through their own bus", () => {
    const listeners: AssignmentListener[] = [];
    const steps = new InProcessBus() as Bus;
    steps.onAssignment = (l) => listeners.push(l);
    const edges = edgesWith();
    edges.rebalancesFrom(steps);
    const memoryBus = new FusedBus(new InProcessBus(), edges); // the memory service's own client, no rebalances of its own
    const stepsBus = new FusedBus(steps, edges);
    const seen: string[] = [];
    memoryBus.onAssignment?.((group) => seen.push(`memory saw ${group}`));
    stepsBus.onAssignment?.((group) => seen.push(`steps saw ${group}`));
    listeners.forEach((l) => l('wayfinder.state-localizer', { 'wayfinder.steps.v1': [1] }));
    // Each once: the steps bus is not followed twice through its own edges.
    expect(seen).toEqual(['memory saw wayfinder.state-localizer', 'steps saw wayfinder.state-localizer']);
  });
});
