/**
 * The memory service's per-agent trails are durable (DESIGN §7): after a restart the agent's conclusion,
 * position and last applied seq come back from the store, so the next STATE still names the conclusion
 * reached before the restart and a redelivered step changes nothing.
 */
import { HashingEmbedder } from '@wayfinder/embeddings';
import { encodeAgentTrailsV1, InMemoryVectorStore, InMemoryWorkingMemory } from '@wayfinder/memory';
import { DurableAgentStates, InMemoryAgentStateStore, InMemoryMapStore, MapCache } from '@wayfinder/service-core';
import { AgentTrails } from './agent-trails';
import { MemoryRecorder } from './memory-recorder';
import { localized, reportMap, type AgentRef } from './memory-service.testing';

describe('memory trails across a restart', () => {
  it('keep the conclusion and the last seq of each agent', async () => {
    const store = new InMemoryAgentStateStore();
    const working = new InMemoryWorkingMemory({ ttlMs: 60_000 });
    const embedder = new HashingEmbedder();
    const start = () => {
      const trails = new AgentTrails(Infinity);
      const maps = new MapCache(new InMemoryMapStore());
      const recorder = new MemoryRecorder(working, new InMemoryVectorStore({ dimension: embedder.dimension }), embedder, maps, trails);
      return { recorder, trails, states: new DurableAgentStates(trails, store) };
    };
    const agent: AgentRef = { tenantId: 'acme:1', taskId: 'report', agentId: 'a%1' };
    const done = { milestoneId: 'pricing', completed: ['collect'] };
    const conclusion = 'The three competitors price their entry plans between 19 and 29 dollars per month.';

    const first = start();
    await first.recorder.onMap(reportMap(agent.tenantId, agent.taskId));
    const step2 = localized(agent, 2, { kind: 'message', message: { role: 'assistant', type: 'output', text: conclusion } }, done);
    await first.states.run([agent], async () => {
      await first.recorder.onLocalized(localized(agent, 1, { kind: 'milestone', milestone: { id: 'collect', status: 'done' } }, done));
      await first.recorder.onLocalized(step2);
    });

    const second = start(); // a new process: nothing in memory
    await second.recorder.onMap(reportMap(agent.tenantId, agent.taskId));
    await second.states.run([agent], () => second.recorder.onLocalized(step2)); // redelivered
    expect(second.trails.peek(agent)?.lastSeq).toBe(2);
    await second.states.run([agent], () => second.recorder.onLocalized(localized(agent, 3, { kind: 'action', action: { tool: 'write', args: { part: 'one' } } }, done)));
    expect(second.trails.peek(agent)?.log.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect((await working.getState(agent))?.text).toContain('19 and 29 dollars');
  });

  it('restore a trail an earlier build stored in the previous document version (JSON), and store it in the current one', async () => {
    const store = new InMemoryAgentStateStore();
    const working = new InMemoryWorkingMemory({ ttlMs: 60_000 });
    const embedder = new HashingEmbedder();
    const agent: AgentRef = { tenantId: 'acme', taskId: 'report', agentId: 'a1' };
    const done = { milestoneId: 'pricing', completed: ['collect'] };
    // What the earlier build wrote after steps 1 and 2 of this agent.
    const earlier = new AgentTrails(Infinity);
    const earlierRecorder = new MemoryRecorder(working, new InMemoryVectorStore({ dimension: embedder.dimension }), embedder, new MapCache(new InMemoryMapStore()), earlier);
    await earlierRecorder.onMap(reportMap(agent.tenantId, agent.taskId));
    await earlierRecorder.onLocalized(localized(agent, 1, { kind: 'milestone', milestone: { id: 'collect', status: 'done' } }, done));
    await earlierRecorder.onLocalized(localized(agent, 2, { kind: 'action', action: { tool: 'fetch', args: { url: 'https://alpha.example' } } }, done));
    const trail = earlier.peek(agent)!;
    store.put(agent, 1, encodeAgentTrailsV1({ tenantId: agent.tenantId, agentId: agent.agentId, tasks: [[agent.taskId, trail]] }));

    const trails = new AgentTrails(Infinity);
    const maps = new MapCache(new InMemoryMapStore());
    const recorder = new MemoryRecorder(working, new InMemoryVectorStore({ dimension: embedder.dimension }), embedder, maps, trails);
    const states = new DurableAgentStates(trails, store, { onUnreadable: (_, error) => { throw error; } });
    await recorder.onMap(reportMap(agent.tenantId, agent.taskId));
    await states.run([agent], () => recorder.onLocalized(localized(agent, 2, { kind: 'action', action: { tool: 'fetch', args: { url: 'https://alpha.example' } } }, done)));
    expect(trails.peek(agent)?.log.map((e) => e.seq)).toEqual([1, 2]); // the redelivered step 2 changed nothing
    await states.run([agent], () => recorder.onLocalized(localized(agent, 3, { kind: 'action', action: { tool: 'write', args: { part: 'one' } } }, done)));
    const stored = store.peek(agent)!;
    expect(stored.version).toBe(3);
    expect([...stored.state.subarray(0, 3)]).toEqual([0x57, 0x54, 3]); // 'W' 'T' version 3
    expect(trails.peek(agent)?.checkpointed.has('collect')).toBe(true);
    expect(trails.peek(agent)?.log.map((e) => e.seq)).toEqual([1, 2, 3]);
  });
});
