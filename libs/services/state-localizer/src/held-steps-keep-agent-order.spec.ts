/**
 * An agent's steps leave the state localizer in seq order, whatever happens to the ones held for a map:
 * the detector skips a step at or below the last seq it applied, so a step published late is a step lost
 * (issue #17: the broker chaos run saw an agent's steps 4, 5 published after 6–11). Three ways it went
 * wrong: the hold sweep took the held steps while a batch was routing the agent's next step to wait
 * behind them; the sweep's publish failed and its steps were held again, but the agent's later steps no
 * longer waited; the same for the release of a task's held steps when its map came.
 */
import type { Bus } from '@wayfinder/bus';
import { ManualClock } from '@wayfinder/clock';
import type { CognitiveMap, LocalizedStep, StepEvent } from '@wayfinder/contracts';
import { parseTask } from '@wayfinder/cognitive-map';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { InMemoryAgentStateStore, InMemoryMapStore } from '@wayfinder/service-core';
import { InMemoryHeldSteps, type HeldStepStore } from './held-steps.store';
import { LOCALIZER_HOLD, StepHandler } from './step.handler';

const TASK = 'job';

function step(seq: number): StepEvent {
  return {
    schema: 'wayfinder.step.v1', eventId: `a-${seq}`, tenantId: 't', agentId: 'a', taskId: TASK, runId: 'r', seq,
    ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), kind: 'action', action: { tool: 'job_status', args: { job: 'j' } },
  };
}

function mapOf(taskId: string): CognitiveMap {
  const parsed = parseTask({
    schema: 'wayfinder.task.v1', eventId: `task-${taskId}`, tenantId: 't', ts: '2026-01-01T00:00:00.000Z', taskId, goal: 'wait for the job',
    milestones: [{ id: 'wait', description: 'wait for the job', dependsOn: [] }],
  });
  if (!parsed.ok) throw new Error('bad test map');
  return parsed.value;
}

/** Like Redis: an operation takes effect when it is sent; its answer arrives when the test lets it. */
class SlowAnswers implements HeldStepStore {
  private readonly inner = new InMemoryHeldSteps(LOCALIZER_HOLD.maxPerAgent);
  private gate: Promise<void> = Promise.resolve();
  private open: () => void = () => undefined;

  holdAnswers(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  answer(): void {
    this.open();
  }

  hold(steps: readonly StepEvent[], nowMs: number): Promise<StepEvent[]> {
    return this.inner.hold(steps, nowMs);
  }

  take(tenantId: string, taskId: string): Promise<StepEvent[]> {
    return this.inner.take(tenantId, taskId);
  }

  async takeExpired(heldBeforeMs: number): Promise<StepEvent[]> {
    const taken = await this.inner.takeExpired(heldBeforeMs);
    await this.gate;
    return taken;
  }

  putBack(steps: readonly StepEvent[], nowMs: number): Promise<void> {
    return this.inner.putBack(steps, nowMs);
  }
}

describe('held steps keep their agent’s order', () => {
  const clock = new ManualClock(1_000_000);
  let held: SlowAnswers;
  let published: number[];
  let failing: boolean;
  let handler: StepHandler;
  const mapStore = new InMemoryMapStore();

  beforeEach(() => {
    held = new SlowAnswers();
    published = [];
    failing = false;
    const bus = {
      publish: async (_topic: string, payloads: LocalizedStep[]) => {
        if (failing) throw new Error('broker unreachable');
        published.push(...payloads.map((l) => l.step.seq));
      },
    } as unknown as Bus;
    const states = new InMemoryAgentStateStore();
    handler = new StepHandler(bus, mapStore, new HashingEmbedder(), () => states, held, { holdMs: 1_000 }, clock);
  });

  const expire = () => clock.advance(1_001);
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('when the sweep takes the held steps while a batch routes the next one', async () => {
    await handler.onSteps([step(0), step(1)]);
    expire();
    held.holdAnswers();
    const sweep = handler.sweep(); // takes 0 and 1; its answer is on the way
    const batch = handler.onSteps([step(2), step(3)]);
    await settle();
    held.answer();
    await Promise.all([sweep, batch]);
    await handler.onSteps([step(4), step(5)]);
    expire();
    await handler.sweep();
    expect(published).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('when the sweep cannot publish and holds its steps again', async () => {
    await handler.onSteps([step(0), step(1)]);
    expire();
    failing = true;
    await expect(handler.sweep()).rejects.toThrow('broker unreachable');
    failing = false;
    await handler.onSteps([step(2), step(3)]);
    await handler.sweep();
    expect(published).toEqual([0, 1, 2, 3]);
  });

  it('when the map comes but its held steps cannot be published', async () => {
    const taskless = (seq: number) => ({ ...step(seq), taskId: 'late' });
    await handler.onSteps([taskless(0), taskless(1)]);
    failing = true;
    await expect(handler.onMap(mapOf('late'))).rejects.toThrow('broker unreachable');
    failing = false;
    await handler.onSteps([taskless(2), taskless(3)]);
    expect(published).toEqual([0, 1, 2, 3]);
  });
});
