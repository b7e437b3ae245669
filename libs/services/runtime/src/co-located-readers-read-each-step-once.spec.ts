/**
 * The co-located readers of localized steps (issues #17, #28: the history recorder and the memory service
 * reading the navigator's localized steps in process): each gets each batch once, all at the same time;
 * the publisher's batch waits for their writes, so a failure or a crash before the steps commit
 * re-delivers the steps; a local topic reaches only the process's readers. Their subscriptions to other
 * topics stay on the bus, and they follow the upstream consumer's rebalances.
 */
import { InProcessBroker, InProcessBus, type AssignmentListener, type Bus } from '@wayfinder/bus';
import type { LocalizedStep, StepEvent } from '@wayfinder/contracts';
import { CoLocatedBus, CoLocatedReaders } from './co-located-readers';

const TS = '2026-01-01T00:00:00.000Z';

function step(seq: number, agent = `a${seq % 3}`): StepEvent {
  return { schema: 'wayfinder.step.v1', eventId: `e${seq}`, tenantId: 't', agentId: agent, taskId: 'k', seq, ts: TS, kind: 'message', message: { role: 'assistant', text: `m${seq}` } };
}

function localizedOf(s: StepEvent): LocalizedStep {
  return { schema: 'wayfinder.localized.v1', eventId: `l-${s.eventId}`, tenantId: s.tenantId, ts: s.ts, step: s, position: { milestoneId: null, completed: [], progress: 0, confidence: 0, method: 'unknown' } };
}

const LOCALIZED = 'wayfinder.localized.v1';
const DEVIATIONS = 'wayfinder.deviations.v1';

function edgesWith(local = false): CoLocatedReaders {
  return new CoLocatedReaders(LOCALIZED, ['history', 'memory'], local);
}

/** The navigator: each steps batch published as localized steps through the co-located bus, inside the batch. */
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

describe('co-located readers of localized steps', () => {
  it('get each localized step once, all at the same time, and the steps batch waits for their writes', async () => {
    const bus = new CoLocatedBus(new InProcessBus(), edgesWith());
    const written = new Map<string, string[]>([['history', []], ['memory', []]]);
    let observersStarted = 0;
    let releaseObservers!: () => void;
    const observersMayFinish = new Promise<void>((r) => (releaseObservers = r));
    for (const observer of ['history', 'memory']) {
      bus.subscribe(
        LOCALIZED,
        async (batch) => {
          observersStarted++;
          await observersMayFinish; // a Redis write still in flight
          written.get(observer)!.push(...batch.map((d) => d.payload.eventId));
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
      // Both readers start on the batch at once (neither waits for the other's write).
      await until(() => observersStarted >= 2, 2_000, 'both readers to start');
      await new Promise((r) => setTimeout(r, 50));
      // The readers' writes are not done: the steps batch is not done either.
      expect(committed).toEqual([]);
      releaseObservers();
      await until(() => committed.length === steps.length, 2_000, 'the steps batch');
      expectEachOnceInAgentOrder(written.get('history'), steps.length);
      expectEachOnceInAgentOrder(written.get('memory'), steps.length);
    } finally {
      releaseObservers();
      await bus.stop();
    }
  });

  it('a crash before the steps commit re-delivers them to the observer, which then records each once', async () => {
    const broker = new InProcessBroker();
    const stored = new Set<string>(); // the observer's durable, idempotent records (history: SET NX by id)
    const seen: string[][] = [[], []];
    const failing = new CoLocatedBus(new InProcessBus({ broker, retry: { initialBackoffMs: 60_000, maxAttempts: 5 } }), edgesWith());
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

    const restarted = new CoLocatedBus(new InProcessBus({ broker }), edgesWith());
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
    const bus = new CoLocatedBus(new InProcessBus(), edgesWith());
    let historyDone = false;
    bus.subscribe(
      LOCALIZED,
      async () => {
        await new Promise((r) => setTimeout(r, 30));
        historyDone = true;
      },
      { groupId: 'history' },
    );
    bus.subscribe(
      LOCALIZED,
      async () => {
        throw new Error('memory trails: version conflict');
      },
      { groupId: 'memory' },
    );
    await expect(bus.publish(LOCALIZED, [localizedOf(step(1))])).rejects.toThrow('memory trails: version conflict');
    expect(historyDone).toBe(true);
  });

  it("keep their other topics on the inner bus, and a local topic reaches only the process's readers", async () => {
    const broker = new InProcessBroker();
    const outside = new InProcessBus({ broker });
    const got: string[] = [];
    outside.subscribe(LOCALIZED, async (batch) => void got.push(...batch.map((d) => d.payload.eventId)), { groupId: 'tail' });
    await outside.start();
    const published = new CoLocatedBus(new InProcessBus({ broker }), edgesWith());
    const local = new CoLocatedBus(new InProcessBus({ broker }), edgesWith(true));
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
  });

  it("follow the upstream consumer's rebalances through their own bus", () => {
    const listeners: AssignmentListener[] = [];
    const steps = new InProcessBus() as Bus;
    steps.onAssignment = (l) => listeners.push(l);
    const edges = edgesWith();
    edges.rebalancesFrom(steps);
    const memoryBus = new CoLocatedBus(new InProcessBus(), edges); // the memory service's own client, no rebalances of its own
    const stepsBus = new CoLocatedBus(steps, edges);
    const seen: string[] = [];
    memoryBus.onAssignment?.((group) => seen.push(`memory saw ${group}`));
    stepsBus.onAssignment?.((group) => seen.push(`steps saw ${group}`));
    listeners.forEach((l) => l('wayfinder.navigator', { 'wayfinder.steps.v1': [1] }));
    // Each once: the steps bus is not followed twice through its own edges.
    expect(seen).toEqual(['memory saw wayfinder.navigator', 'steps saw wayfinder.navigator']);
  });
});
