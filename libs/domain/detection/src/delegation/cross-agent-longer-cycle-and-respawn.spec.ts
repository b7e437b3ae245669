// A cycle of three agents, and a parent re-spawning the same sub-agent with the same task, are cycles too;
// a parent handing different sub-tasks to its workers is not.
import { resolvePolicy } from '../policy/resolve';
import { CrossAgentCycleDetector } from './cross-agent-cycle.detector';
import { DelegationGraph } from './delegation-graph';
import { delegationSignalsOf } from './delegation-signal';
import { fleet } from './delegation.testing';

const policy = resolvePolicy({});

describe('cross_agent_cycle: longer cycles and re-spawns', () => {
  it('flags all three agents of A → B → C → A once four delegations are live', () => {
    const d = new CrossAgentCycleDetector();
    const f = fleet();
    const steps = [f.delegate('a', 'b', 'x'), f.delegate('b', 'c', 'y'), f.delegate('c', 'a', 'z'), f.delegate('a', 'b', 'x')];
    const out = steps.map((s) => d.onStep(s, undefined, policy));
    expect(out.slice(0, 3).flat()).toEqual([]);
    expect(out[3].map((x) => x.agentId).sort()).toEqual(['a', 'b', 'c']);
    expect(out[3][0].evidence['cycle']).toEqual(['a', 'b', 'c', 'a']);
  });

  it('flags a parent spawning the same sub-agent with the same task three times (spawn tool, EN)', () => {
    const d = new CrossAgentCycleDetector();
    const f = fleet();
    const out = [1, 2, 3].map(() => d.onStep(f.spawn('parent', 'spawn_agent', { agentId: 'scraper', task: 'Scrape the pricing page.' }), undefined, policy));
    expect(out[2].map((x) => [x.agentId, x.evidence['pattern'], x.evidence['subtask']]).sort()).toEqual([
      ['parent', 'same_subtask', 'scrape the pricing page'],
      ['scraper', 'same_subtask', 'scrape the pricing page'],
    ]);
  });

  it('does not flag different sub-tasks to the same workers (handoffs, ZH)', () => {
    const d = new CrossAgentCycleDetector();
    const f = fleet();
    const steps = ['抓取A公司价格', '抓取B公司价格', '抓取C公司价格', '抓取D公司价格'].map((task) => f.spawn('parent', 'transfer_to_scraper', { task }));
    expect(steps.flatMap((s) => d.onStep(s, undefined, policy))).toEqual([]);
  });

  it('keeps at most maxEdgesPerTenant live edges and survives an export/import', () => {
    const graph = new DelegationGraph();
    const f = fleet();
    const settings = { ...policy.crossAgent, maxEdgesPerTenant: 2 };
    const signals = [f.delegate('a', 'b', 'x'), f.delegate('b', 'a', 'y'), f.delegate('a', 'b', 'x'), f.delegate('b', 'a', 'y')].flatMap((s) => delegationSignalsOf(s));
    expect(signals.flatMap((s) => graph.onSignal(s, settings))).toEqual([]);
    const restored = new DelegationGraph();
    restored.importTenant('t1', JSON.parse(JSON.stringify(graph.exportTenant('t1'))));
    const more = [f.delegate('a', 'b', 'x'), f.delegate('b', 'a', 'y')].flatMap((s) => delegationSignalsOf(s));
    const full = { ...policy.crossAgent, maxEdgesPerTenant: 10, warning: 3 };
    expect(more.flatMap((s) => restored.onSignal(s, full)).map((x) => x.count)).toEqual([3, 3]);
  });
});
