/**
 * A state localizer restarted (or its partition moved) keeps every agent's position: the completed
 * milestones come back from the store, and steps that were waiting for their map when the process died
 * are localized once when the map comes.
 */
import type { CognitiveMap, LocalizedStep, StepEvent, TaskSpec } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import { parseTask } from '@wayfinder/cognitive-map';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { InMemoryAgentStateStore, InMemoryMapStore } from '@wayfinder/service-core';
import { InMemoryHeldSteps } from './held-steps.store';
import { StepHandler } from './step.handler';

const ts = '2026-01-01T00:00:00.000Z';

function done(taskId: string, agentId: string, seq: number, id: string): StepEvent {
  return { schema: 'wayfinder.step.v1', eventId: `${taskId}-${agentId}-${seq}`, tenantId: 't:1', agentId, taskId, runId: 'r', seq, ts, kind: 'milestone', milestone: { id, status: 'done' } };
}

function mapOf(taskId: string): CognitiveMap {
  const spec: TaskSpec = {
    schema: 'wayfinder.task.v1', eventId: `task-${taskId}`, tenantId: 't:1', ts, taskId, goal: 'collect the data then write the report then review it',
    milestones: [
      { id: 'collect', description: 'collect the data', dependsOn: [] },
      { id: 'write', description: 'write the report', dependsOn: ['collect'] },
      { id: 'review', description: 'review the report', dependsOn: ['write'] },
    ],
  };
  const parsed = parseTask(spec);
  if (!parsed.ok) throw new Error('bad test map');
  return parsed.value;
}

describe('a restarted state localizer', () => {
  const stores = new InMemoryAgentStateStore();
  const held = new InMemoryHeldSteps(256);
  const published: LocalizedStep[] = [];
  const bus = { publish: async (_topic: string, payloads: LocalizedStep[]) => void published.push(...payloads) } as unknown as Bus;
  const mapStore = new InMemoryMapStore();
  const start = () => new StepHandler(bus, mapStore, new HashingEmbedder(), () => stores, held);

  it('keeps the agents’ completed milestones', async () => {
    await mapStore.put(mapOf('job'));
    await start().onSteps([done('job', 'a:1', 1, 'collect')]);
    await start().onSteps([done('job', 'a:1', 2, 'write')]); // a new process
    expect(published.map((l) => l.position.completed)).toEqual([['collect'], ['collect', 'write']]);
  });

  it('localizes the steps held when it died once, when the map comes', async () => {
    published.length = 0;
    await start().onSteps([done('late', 'a:2', 1, 'collect'), done('late', 'a:2', 2, 'write')]);
    expect(published).toEqual([]);
    expect(held.size).toBe(2);
    const after = start();
    await after.onMap(mapOf('late'));
    expect(published.map((l) => [l.eventId, l.position.method])).toEqual([
      ['late-a:2-1', 'signal'],
      ['late-a:2-2', 'signal'],
    ]);
    await after.onMap({ ...mapOf('late'), version: 2 });
    expect(published).toHaveLength(2);
  });
});
