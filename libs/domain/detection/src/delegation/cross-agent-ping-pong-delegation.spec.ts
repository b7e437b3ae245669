// Two agents delegating to each other four times with no milestone progress: both get cross_agent_cycle,
// with the cycle in the evidence. Progress in between, other tenants, or delegations that never close a
// cycle give nothing.
import { resolvePolicy } from '../policy/resolve';
import { CrossAgentCycleDetector } from './cross-agent-cycle.detector';
import { fleet } from './delegation.testing';

const policy = resolvePolicy({});

describe('cross_agent_cycle: ping-pong delegation', () => {
  it('flags both agents at the fourth delegation, with the cycle (EN)', () => {
    const d = new CrossAgentCycleDetector();
    const f = fleet();
    const steps = [f.delegate('planner', 'researcher', 'find pricing data'), f.delegate('researcher', 'planner', 'clarify what pricing data'), f.delegate('planner', 'researcher', 'find pricing data'), f.delegate('researcher', 'planner', 'clarify what pricing data')];
    const out = steps.map((s) => d.onStep(s, undefined, policy));
    expect(out.slice(0, 3).flat()).toEqual([]);
    expect(out[3].map((x) => [x.agentId, x.detector, x.level, x.count]).sort()).toEqual([
      ['planner', 'cross_agent_cycle', 'warning', 4],
      ['researcher', 'cross_agent_cycle', 'warning', 4],
    ]);
    expect(out[3][0].evidence['cycle']).toEqual(['researcher', 'planner', 'researcher']);
    expect(out[3].find((x) => x.agentId === 'planner')).toMatchObject({ taskId: 'task-planner', atSeq: 1, loopStartSeq: 0 });
  });

  it('goes critical at eight delegations and reports each level once (ZH sub-tasks)', () => {
    const d = new CrossAgentCycleDetector();
    const f = fleet();
    const out = Array.from({ length: 10 }, (_, i) => d.onStep(i % 2 === 0 ? f.delegate('甲', '乙', `查找第${i}家的价格数据`) : f.delegate('乙', '甲', `请说明第${i}家需要哪些价格`), undefined, policy));
    expect(out.map((o) => o.map((x) => x.level)[0] ?? '-')).toEqual(['-', '-', '-', 'warning', '-', '-', '-', 'critical', '-', '-']);
  });

  it('says nothing when a milestone is reached in between', () => {
    const d = new CrossAgentCycleDetector();
    const f = fleet();
    const steps = [f.delegate('a', 'b', 'x'), f.delegate('b', 'a', 'y'), f.done('b', 'm1'), f.delegate('a', 'b', 'x'), f.delegate('b', 'a', 'y'), f.delegate('a', 'b', 'x')];
    expect(steps.flatMap((s) => d.onStep(s, undefined, policy))).toEqual([]);
  });

  it('never links agents of different tenants', () => {
    const d = new CrossAgentCycleDetector();
    const one = fleet('t1');
    const two = fleet('t2');
    const steps = [one.delegate('a', 'b', 'x'), two.delegate('b', 'a', 'y'), one.delegate('a', 'b', 'x'), two.delegate('b', 'a', 'y'), one.delegate('a', 'b', 'z'), two.delegate('b', 'a', 'w')];
    expect(steps.flatMap((s) => d.onStep(s, undefined, policy))).toEqual([]);
  });

  it('is off when the policy disables it', () => {
    const d = new CrossAgentCycleDetector();
    const f = fleet();
    const off = resolvePolicy({ crossAgent: { enabled: false } });
    const steps = [1, 2, 3, 4].map((i) => (i % 2 ? f.delegate('a', 'b', 'x') : f.delegate('b', 'a', 'y')));
    expect(steps.flatMap((s) => d.onStep(s, undefined, off))).toEqual([]);
  });
});
