import { replayFixture } from './replay-navigator.testing';

describe('wayfinder replay: two agents delegating to each other', () => {
  it('gives both agents cross_agent_cycle after four delegations without progress, with the cycle, and a hint each', async () => {
    const out = await replayFixture('agents-delegate-to-each-other.jsonl', true);
    const cycles = out.filter((d) => d.detector === 'cross_agent_cycle');
    expect(cycles.map((d) => d.agentId).sort()).toEqual(['planner', 'researcher']);
    for (const d of cycles) expect(d.evidence.cycle).toEqual(['researcher', 'planner', 'researcher']);
    const hints = out.filter((o) => o.action === 'hint');
    expect(hints.map((h) => h.agentId).sort()).toEqual(['planner', 'researcher']);
    expect(hints[0].hint.text).toContain('do not delegate this sub-task again');
  });
});
