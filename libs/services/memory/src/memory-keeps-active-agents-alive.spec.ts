/**
 * Working-memory entries expire a TTL after their last write. An agent that keeps working without
 * changing its STATE (stuck on one milestone) must not lose its charter, STATE or checkpoints: the
 * recorder re-writes them every quarter of the TTL while steps arrive. An idle agent's entries expire.
 */
import { HashingEmbedder } from '@wayfinder/embeddings';
import { InMemoryVectorStore, InMemoryWorkingMemory } from '@wayfinder/memory';
import { InMemoryMapStore, MapCache } from '@wayfinder/service-core';
import { AgentTrails } from './agent-trails';
import { MemoryRecorder } from './memory-recorder';
import { localized, reportMap, type AgentRef } from './memory-service.testing';

const TTL_MS = 1_000;

describe('memory recorder keep-alive', () => {
  it('keeps an active agent’s entries past the TTL and lets an idle one’s expire', async () => {
    let now = 0;
    const clock = () => now;
    const working = new InMemoryWorkingMemory({ ttlMs: TTL_MS, now: clock });
    const embedder = new HashingEmbedder();
    const recorder = new MemoryRecorder(working, new InMemoryVectorStore({ dimension: embedder.dimension }), embedder, new MapCache(new InMemoryMapStore()), new AgentTrails(), {
      ttlMs: TTL_MS,
      now: clock,
    });
    const active: AgentRef = { tenantId: 'acme', taskId: 'report', agentId: 'busy' };
    const idle: AgentRef = { tenantId: 'acme', taskId: 'other', agentId: 'idle' };
    const done = { milestoneId: 'pricing', completed: ['collect'] };
    for (const agent of [active, idle]) {
      await recorder.onMap(reportMap(agent.tenantId, agent.taskId));
      await recorder.onLocalized(localized(agent, 1, { kind: 'milestone', milestone: { id: 'collect', status: 'done' } }, done));
    }

    for (let seq = 2; seq <= 8; seq++) {
      now += 250;
      await recorder.onLocalized(localized(active, seq, { kind: 'action', action: { tool: 'search', args: { q: 'same query' } } }, done));
    }
    expect(now).toBeGreaterThan(TTL_MS);

    expect(await working.getCharter(active)).toBeDefined();
    expect((await working.getState(active))?.text).toContain('stage: 2/3');
    expect((await working.listCheckpoints(active)).map((c) => c.milestoneId)).toEqual(['collect']);

    expect(await working.getCharter(idle)).toBeUndefined();
    expect(await working.getState(idle)).toBeUndefined();
    expect(await working.listCheckpoints(idle)).toEqual([]);
  });
});
