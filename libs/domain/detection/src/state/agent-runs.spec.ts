/**
 * AgentRuns holds an agent's single run bare when its state keeps the run id (RunKey), in a wrapper
 * otherwise: both must behave the same, run for run and in least-recently-used order (the order runs are
 * exported in, so persisted state does not change with the layout).
 */
import { AgentRuns, RUN_ID_FIELD } from './agent-runs';

interface Run {
  runId: string;
  n: number;
}

const MAX_RUNS = 3;

/** A fixed pseudo-random sequence of get / getOrCreate / replace / forget over two agents and five runs. */
function play(runs: AgentRuns<Run>): unknown[] {
  const seen: unknown[] = [];
  let x = 12345;
  const next = (m: number) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % m;
  };
  let made = 0;
  for (let i = 0; i < 2000; i++) {
    const agent = `a${next(2)}`;
    const run = `r${next(5)}`;
    const op = next(20);
    if (op < 8) seen.push(runs.getOrCreate('t', agent, run, () => ({ runId: 'unset', n: made++ })).n);
    else if (op < 16) seen.push(runs.get('t', agent, run)?.n ?? null);
    else if (op < 18) {
      const kept = runs.runs('t', agent).slice(next(2));
      runs.replace('t', agent, kept);
    } else if (op < 19) runs.forget('t', agent);
    seen.push(runs.runs('t', agent).map(([id, r]) => `${id}:${r.n}`));
  }
  seen.push(runs.agentCount);
  return seen;
}

describe('AgentRuns', () => {
  it('behaves the same with the single run bare (RunKey) as in a wrapper', () => {
    const wrapped = play(new AgentRuns<Run>(MAX_RUNS));
    const bare = play(new AgentRuns<Run>(MAX_RUNS, RUN_ID_FIELD));
    expect(bare).toEqual(wrapped);
    // The sequence reaches agents with several runs and evictions, not only single runs.
    expect(wrapped.some((s) => Array.isArray(s) && s.length === MAX_RUNS)).toBe(true);
  });

  it('keeps the run id in the state it holds bare, and the least recently used run goes first', () => {
    const runs = new AgentRuns<Run>(2, RUN_ID_FIELD);
    const first = runs.getOrCreate('t', 'a', 'r1', () => ({ runId: '', n: 1 }));
    expect(first.runId).toBe('r1');
    expect(runs.get('t', 'a', 'r2')).toBeUndefined();
    runs.getOrCreate('t', 'a', 'r2', () => ({ runId: '', n: 2 }));
    expect(runs.get('t', 'a', 'r1')).toBe(first);
    runs.getOrCreate('t', 'a', 'r3', () => ({ runId: '', n: 3 }));
    expect(runs.runs('t', 'a').map(([id]) => id)).toEqual(['r1', 'r3']);
  });
});
