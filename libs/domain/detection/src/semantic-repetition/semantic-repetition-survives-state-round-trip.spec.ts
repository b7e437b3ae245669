/**
 * semantic_repetition keeps its chain in its own plug-in state: exported with the agent's state and
 * imported elsewhere, the chain goes on as if nothing happened (a partition moved mid-chain).
 */
import type { StepEvent } from '@wayfinder/contracts';
import { DetectionEngine } from '../detection.engine';
import { PROFILES } from '../policy/profiles';

const policy = { ...PROFILES.balanced, repetition: { enabled: true, window: 4, threshold: 0.9 } };
const say = (seq: number, text: string): StepEvent => ({
  schema: 'wayfinder.step.v1', eventId: `e${seq}`, tenantId: 't1', agentId: 'a1', taskId: 'task', runId: 'r1', seq, ts: '2026-01-01T00:00:00.000Z',
  kind: 'message', message: { role: 'assistant', text },
});
const same = 'The revenue figure is still missing from every source I checked today.';

describe('semantic_repetition across a state round trip', () => {
  it('reports the chain at the window after two messages here and two on the engine that imported the state', () => {
    const a = new DetectionEngine({ policyFor: () => ({ policy }) });
    expect([say(0, same), say(1, same)].flatMap((s) => a.onStep(s))).toEqual([]);
    const state = a.exportAgentState('t1', 'a1') as Uint8Array;

    const b = new DetectionEngine({ policyFor: () => ({ policy }) });
    b.importAgentState('t1', 'a1', state);
    const found = [say(2, same), say(3, same)].flatMap((s) => b.onStep(s)).filter((d) => d.detector === 'semantic_repetition');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ atSeq: 3, loopStartSeq: 0, count: 4, evidence: { embedder: 'hashing', window: 4 } });

    // Without the state the chain would have started over at seq 2.
    const fresh = new DetectionEngine({ policyFor: () => ({ policy }) });
    expect([say(2, same), say(3, same)].flatMap((s) => fresh.onStep(s)).filter((d) => d.detector === 'semantic_repetition')).toEqual([]);
  });
});
