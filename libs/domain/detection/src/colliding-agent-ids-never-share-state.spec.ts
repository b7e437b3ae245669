/**
 * Tenant isolation inside the detection engine (DESIGN §6, §7): agents whose tenant and agent ids would
 * meet under a naive composite key (`tenant:agent`, `tenant\0agent`) keep their own state in the engine
 * and in every plug-in (drift, semantic repetition, goal checks): one agent's loop never counts toward
 * the other's, and exports, forgets and imports touch only the agent named.
 */
import type { StepEvent } from '@wayfinder/contracts';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { DetectionEngine, DriftDetector, goalCheckDetectors, resolvePolicy } from './index';

const policy = resolvePolicy({ profile: 'openclaw', drift: { enabled: true }, repetition: { enabled: true } });

function engine(): DetectionEngine {
  const embedder = new HashingEmbedder();
  return new DetectionEngine({ embedder, policyFor: () => ({ policy }), extraDetectors: [new DriftDetector(embedder), ...goalCheckDetectors(embedder)] });
}

function calls(tenantId: string, agentId: string, from: number, n: number): StepEvent[] {
  const out: StepEvent[] = [];
  for (let i = from; i < from + n; i++) {
    const base = { schema: 'wayfinder.step.v1' as const, tenantId, agentId, taskId: 't', runId: 'r', ts: '2026-01-01T00:00:00.000Z' };
    if (i === 0) out.push({ ...base, eventId: `${agentId}-goal`, seq: 0, kind: 'message', message: { role: 'user', text: 'find the quarterly revenue of ACME and report it' } });
    out.push({ ...base, eventId: `e${i}a`, seq: i * 2 + 1, kind: 'action', action: { tool: 'read', args: { path: '/same/file' }, callId: `c${i}` } });
    out.push({ ...base, eventId: `e${i}o`, seq: i * 2 + 2, kind: 'observation', observation: { tool: 'read', callId: `c${i}`, ok: true, content: 'same' } });
  }
  return out;
}

describe('agents with colliding composite ids', () => {
  const pairs: Array<[[string, string], [string, string]]> = [
    [['a:b', 'c'], ['a', 'b:c']],
    [['n\u0000m', 'z'], ['n', 'm\u0000z']],
    [['p%3ax', 'y'], ['p:x', 'y']],
  ];

  it.each(pairs)('never share detection state (%j and its twin)', ([t1, a1], [t2, a2]) => {
    const e = engine();
    // Same eventIds and seqs for both: any shared state would dedup one agent's steps as the other's.
    const first = calls(t1, a1, 0, 6).flatMap((s) => e.onStep(s));
    const second = calls(t2, a2, 0, 11).flatMap((s) => e.onStep(s));
    expect(first).toEqual([]);
    expect(second.filter((d) => d.detector === 'generic_repeat').map((d) => [d.tenantId, d.agentId, d.count])).toEqual([[t2, a2, 10]]);
    const before = e.exportAgentState(t1, a1);
    e.forgetAgent(t2, a2);
    expect(e.exportAgentState(t2, a2)).toBeUndefined();
    expect(e.exportAgentState(t1, a1)).toEqual(before);
    // The first agent's loop goes on from its own 6 calls, not the twin's 11.
    const later = calls(t1, a1, 6, 5).flatMap((s) => e.onStep(s));
    expect(later.filter((d) => d.detector === 'generic_repeat').map((d) => [d.tenantId, d.agentId, d.count])).toEqual([[t1, a1, 10]]);
  });
});
