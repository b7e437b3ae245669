/** An agent keeps its MAX_RUNS_PER_AGENT most recently used runs; the least recently used goes first. */
import { AgentState, MAX_RUNS_PER_AGENT } from './agent-state';
import { RunState } from './run-state';

const keysOf = (agent: AgentState) => [...agent.runs()].map(([key]) => key);

describe('runs of one agent', () => {
  it('evicts the least recently used run and moves a resumed run to the end', () => {
    const agent = new AgentState('t1', 'a1');
    expect(agent.find('r0')).toBeUndefined();
    const first = agent.add('r0', new RunState('task', 30));
    expect(agent.find('r0')).toBe(first);
    for (let i = 1; i < MAX_RUNS_PER_AGENT; i++) agent.add(`r${i}`, new RunState('task', 30));
    expect(keysOf(agent)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7']);

    expect(agent.find('r0')).toBe(first);
    expect(keysOf(agent)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r0']);
    agent.add('r8', new RunState('task', 30));
    expect(keysOf(agent)).toEqual(['r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r0', 'r8']);
    expect(agent.find('r1')).toBeUndefined();
  });

  it('remembers the last eight applied events', () => {
    const agent = new AgentState('t1', 'a1');
    for (let h = 1; h <= 9; h++) agent.rememberEvent(h * 1000);
    expect(agent.seenEvent(1000)).toBe(false);
    expect(agent.seenEvent(2000)).toBe(true);
    expect(agent.seenEvent(9000)).toBe(true);
    expect(agent.recentEvents).toHaveLength(8);
  });
});
