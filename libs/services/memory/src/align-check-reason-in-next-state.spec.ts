/**
 * An agent's [ALIGN-CHECK] saying no, end to end into working memory: the navigator's ladder answers it
 * with a rollback to the verified checkpoint, and the memory service writes the failing answer, quoted by
 * the rollback's reason, into the next STATE block.
 */
import type { Correction, StepEvent } from '@wayfinder/contracts';
import { resolvePolicy } from '@wayfinder/detection';
import { createNavigator } from '@wayfinder/navigation';
import { localized, reportMap, startEmbeddedMemoryService, until, type AgentRef, type EmbeddedMemoryService } from './memory-service.testing';

const agent: AgentRef = { tenantId: 'acme', taskId: 'report', agentId: 'self-checker' };
const answer = '2. Did the last steps advance the current sub-task? no, the pricing pages keep timing out';

describe('ALIGN-CHECK "no" → rollback → STATE', () => {
  let service: EmbeddedMemoryService;
  beforeAll(async () => {
    service = await startEmbeddedMemoryService();
  });
  afterAll(() => service.stop());

  it('carries the failing answer into the STATE written after the rollback', async () => {
    const map = reportMap(agent.tenantId, agent.taskId);
    const navigator = createNavigator({ policy: resolvePolicy({}) });
    navigator.setMap(agent.tenantId, map);
    const done = localized(agent, 4, { kind: 'milestone', milestone: { id: 'collect', status: 'done' } }, { milestoneId: 'pricing', completed: ['collect'], progress: 0.33 });
    const check = localized(agent, 5, { kind: 'message', message: { role: 'assistant', type: 'thought', text: `[ALIGN-CHECK]\n1. Still serving the goal? yes\n${answer}\n3. Any hard constraint violated? no\n[/ALIGN-CHECK]` } }, { milestoneId: 'pricing', completed: ['collect'], progress: 0.4 });
    const corrections: Correction[] = [done.step, check.step].flatMap((s: StepEvent) => navigator.onStep(s).corrections);
    expect(corrections.map((c) => c.action)).toEqual(['rollback']);

    await service.bus.publish('wayfinder.maps.v1', [map]);
    await until(() => service.stores.workingMemory.getCharter(agent), 'the charter');
    await service.bus.publish('wayfinder.localized.v1', [done, check]);
    await until(async () => (await service.stores.workingMemory.listCheckpoints(agent)).length === 1, 'the checkpoint of collect');
    await service.bus.publish('wayfinder.corrections.v1', corrections);
    const state = await until(async () => {
      const s = await service.stores.workingMemory.getState(agent);
      return s?.text.includes('last attempt failed') ? s : undefined;
    }, 'the failure in STATE');
    expect(state.text).toContain(answer);
    expect(state.text).toContain('stage: 2/3'); // the checkpoint's STATE, after collect
  });
});
