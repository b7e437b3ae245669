import type { Anchor, StepEvent } from '@wayfinder/contracts';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { GoalPersistence } from './goal-persistence';

const SOURCES: Anchor = { id: 'a-sources', text: 'at least 3 sources', target: 3, unit: 'sources', comparator: 'atLeast', hard: true };
const base = { schema: 'wayfinder.step.v1' as const, tenantId: 't', ts: '2026-01-01T00:00:00Z', agentId: 'a', taskId: 'task', runId: 'r' };
let n = 0;
const at = (seq: number) => ({ ...base, eventId: `e${n++}`, seq });

function action(seq: number, tool: string, query: string, tokens = 0): StepEvent {
  return { ...at(seq), kind: 'action', action: { tool, args: { query } }, ...(tokens ? { usage: { inputTokens: tokens } } : {}) };
}
function observation(seq: number, content: string, tokens = 0): StepEvent {
  return { ...at(seq), kind: 'observation', observation: { tool: 'web_search', ok: true, content }, ...(tokens ? { usage: { outputTokens: tokens } } : {}) };
}

describe('GoalPersistence on a "3 sources" anchor', () => {
  it('scores anchor recall, rule-decided consistency, token efficiency and marks deviations on the curve', () => {
    const tracker = new GoalPersistence({ anchors: [SOURCES] });
    tracker.onStep(action(0, 'web_search', 'solar panel efficiency', 10));
    tracker.onStep(observation(1, 'See https://a.example/x and https://b.example/y', 30));
    tracker.onStep(action(2, 'web_search', 'solar panel efficiency', 10), [{ eventId: 'd1', detector: 'near_duplicate_calls' }]);
    tracker.onStep(observation(3, 'Also https://c.example/z', 50));
    tracker.onSelfHeal({ healed: true, steps: 2 });
    tracker.onSelfHeal({ healed: false, steps: 5 });
    const report = tracker.report();

    expect(report.anchors['a-sources']).toEqual({ target: 3, count: 3, met: true });
    expect(report.anchorRecall).toBe(1);
    expect(report.judgedSteps).toBe(4);
    expect(report.trajectoryConsistency).toBe(0.5); // the two observations bringing URLs
    expect(report.ruleCoverage).toBe(0.5); // no embedder: the actions are judged "not serving" without a rule
    expect(report.resourceUnit).toBe('tokens');
    expect(report.resourceEfficiency).toBeCloseTo(80 / 100);
    expect(report.deviations).toBe(1);
    expect(report.selfHealRate).toBe(0.5);
    expect(report.meanReturnLength).toBe(2);
    expect(report.curve.map((p) => p.seq)).toEqual([0, 1, 2, 3]);
    expect(report.curve[2]).toEqual({ seq: 2, consistency: 1 / 3, deviations: ['near_duplicate_calls'] });
  });

  it('falls back to the embedder for steps no rule decides, and counts calls when steps carry no tokens', () => {
    const tracker = new GoalPersistence({ anchors: [SOURCES] }, { embedder: new HashingEmbedder(), similarityThreshold: 0.2 });
    tracker.onStep(action(0, 'web_search', 'sources on solar panel efficiency'));
    tracker.onStep(action(1, 'python', 'print(sum(range(10)))'));
    const report = tracker.report();
    expect(report.anchorRecall).toBe(0);
    expect(report.ruleCoverage).toBe(0);
    expect(report.trajectoryConsistency).toBe(0.5);
    expect(report.resourceUnit).toBe('calls');
    expect(report.resourceEfficiency).toBe(0.5);
    expect(report.selfHealRate).toBeNull();
  });

  it('keeps the curve bounded but never drops a deviation point', () => {
    const tracker = new GoalPersistence({ anchors: [SOURCES] }, { maxCurvePoints: 50 });
    for (let seq = 0; seq < 1000; seq++) {
      tracker.onStep(action(seq, 'web_search', `query ${seq}`), seq === 777 ? [{ eventId: 'd777', detector: 'generic_repeat' }] : []);
    }
    const curve = tracker.report().curve;
    expect(curve.length).toBeLessThanOrEqual(51);
    expect(curve.find((p) => p.seq === 777)?.deviations).toEqual(['generic_repeat']);
    expect(curve.map((p) => p.seq)).toEqual([...curve.map((p) => p.seq)].sort((a, b) => a - b));
  });

  it('reports null anchor recall for a map without anchors', () => {
    expect(new GoalPersistence({ anchors: [] }).report().anchorRecall).toBeNull();
  });
});
