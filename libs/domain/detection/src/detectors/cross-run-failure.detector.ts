/**
 * `error_repeat` across an agent's runs (PROJECT-RULES.md P8): the same tool failing with the same
 * normalized error in run after run of one agent — a sub-agent started afresh that hits the failure its
 * predecessors hit. History is per run, so the upstream row never sees it; this reads the runs the agent
 * already keeps (at most MAX_RUNS_PER_AGENT, most recently used first), no extra state. Judged at the failed observation that is the
 * first of its run to repeat them (later repeats within the run are the upstream row's).
 */
import type { PolicySettings } from '@wayfinder/contracts';
import type { AgentState } from '../state/agent-state';
import { shouldReport } from '../state/dedup';
import { RecordFlag, type RunHistory } from '../state/run-history';
import type { RunState } from '../state/run-state';
import type { DeviationDraft } from '../types';

/**
 * The newest outcomes of the tool in one run while they fail with this error; -1 when the run's newest
 * outcome of the tool is anything else (a success, another error: the streak is broken there), 0 when the
 * run has no outcome of the tool.
 */
function failingTail(h: RunHistory, tool: number, error: number): number {
  let count = 0;
  for (let i = 0; i < h.size; i++) {
    const s = h.slot(i);
    const flags = h.flags(s);
    if (h.tool(s) !== tool || (flags & RecordFlag.Outcome) === 0) continue;
    if ((flags & RecordFlag.Error) === 0 || (flags & RecordFlag.UnknownTool) !== 0 || h.error(s) !== error) return count === 0 ? -1 : count;
    count++;
  }
  return count;
}

/** Call after the run's record got this outcome (a failure of `tool` with `error`, not unknown-tool). */
export function detectCrossRunFailure(agent: AgentState, run: RunState, tool: string, toolHash: number, error: number, loop: PolicySettings['loop']): DeviationDraft | null {
  if (loop.errorRepeatAcrossRuns !== true || !agent.olderRuns || agent.olderRuns.length === 0) return null;
  // Only the first failure of this run that repeats the earlier runs' (the run's own tail is then 1).
  if (failingTail(run, toolHash, error) !== 1) return null;
  // The other runs, most recently used first: a run whose newest outcome of the tool is anything but this
  // failure ends the streak (a success with the tool in between is progress).
  const others: RunState[] = [];
  for (const [, other] of agent.runs()) if (other !== run) others.push(other);
  let count = 1;
  let runs = 1;
  for (let i = others.length - 1; i >= 0; i--) {
    const tail = failingTail(others[i], toolHash, error);
    if (tail < 0) break;
    if (tail === 0) continue;
    count += tail;
    runs++;
  }
  if (runs < 2 || count < loop.errorRepeatWarning) return null;
  const critical = count >= loop.errorRepeatCritical;
  const level = critical ? 'critical' : 'warning';
  if (!shouldReport(run, `error_repeat|${level}|${toolHash}:${error}:across-runs`, count, critical ? loop.errorRepeatCritical : loop.errorRepeatWarning)) return null;
  return {
    detector: 'error_repeat',
    level,
    count,
    atSeq: 0,
    // Seqs of other runs do not order against this one's: the loop starts, in this run, here.
    loopStartSeq: run.lastSeq,
    evidence: { tool, acrossRuns: runs },
    message: `"${tool}" failed with the same error ${count} times across ${runs} runs of this agent; starting over does not change the outcome, change the approach.`,
  };
}
