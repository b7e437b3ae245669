/**
 * Tenant isolation of the in-process held steps (embedded mode), as RedisHeldSteps is tested on Redis:
 * tenants and tasks whose ids would meet under a naive `tenant:task` key never take each other's steps.
 */
import type { StepEvent } from '@wayfinder/contracts';
import { InMemoryHeldSteps } from './held-steps.store';

function step(tenantId: string, taskId: string, agentId: string, seq: number): StepEvent {
  return { schema: 'wayfinder.step.v1', eventId: `${tenantId}/${taskId}/${agentId}/${seq}`, tenantId, agentId, taskId, runId: 'r', seq, ts: '2026-01-01T00:00:00.000Z', kind: 'message', message: { role: 'assistant', text: 'x' } };
}

describe('in-memory held steps', () => {
  it('keeps tenants whose composite ids collide apart', async () => {
    const held = new InMemoryHeldSteps(16);
    const pairs: Array<[[string, string], [string, string]]> = [
      [['a:b', 'c'], ['a', 'b:c']],
      [['p%3ax', 'y'], ['p:x', 'y']],
      [['n\u0000m', 'z'], ['n', '\u0000m\u0000z']],
      [['{q}', 'w'], ['q', 'w']],
    ];
    for (const [[t1, k1], [t2, k2]] of pairs) {
      await held.hold([step(t1, k1, 'agent:1', 1), step(t2, k2, 'agent:1', 1)], 1_000);
      expect((await held.take(t2, k2)).map((s) => s.tenantId)).toEqual([t2]);
      expect((await held.take(t1, k1)).map((s) => s.tenantId)).toEqual([t1]);
      expect(held.size).toBe(0);
    }
  });
});
