/**
 * Steps of a fleet for the worker-memory benchmark (issue 14: "measure with steps that exercise every
 * detector"): a cycle of 16 steps per agent that touches every detector's state — a user goal and a
 * numbered plan (drift's goal and plan references, plan_off_goal, constraint rules from feedback), searches
 * with changing queries and pages (near-duplicate slots and sketches, tool loop, cycle), a poll
 * (known_poll_no_progress), a failing command (error_repeat), assistant messages (monologue, semantic
 * repetition, content repetition, drift scoring), a milestone reported failed then started
 * (verification_failed_repeat, stagnation), a compaction (the compaction guard, compaction_loop) and
 * token usage on every step (budget). Every agent has drift state from its first step.
 */
import type { StepEvent } from '@wayfinder/contracts';

const TOPICS = ['quarterly revenue of ACME', 'the open issue about the parser', 'the release notes of version 2', 'population of Lisbon in 1900', 'the cheapest flight to Oslo'];

export const FLEET_CYCLE = 16;

/**
 * `uniqueGoals`: every agent's topic names the agent, so no two agents share a goal, plan or message text
 * (the fleet otherwise has 5 topics: drift's references of agents of one topic are equal, and shared).
 */
export function everyDetectorStep(agent: number, seq: number, ts = new Date().toISOString(), uniqueGoals = false): StepEvent {
  const agentId = `agent-${agent}`;
  const topic = uniqueGoals ? `${TOPICS[agent % TOPICS.length]} for case ${agent}` : TOPICS[agent % TOPICS.length];
  const base = {
    schema: 'wayfinder.step.v1' as const,
    eventId: `${agentId}-${seq}`,
    tenantId: `tenant-${agent % 3}`,
    agentId,
    taskId: 'bench',
    runId: 'r1',
    seq,
    ts,
    usage: { inputTokens: 120 + (seq % 7), outputTokens: 40, costUsd: 0.0004 },
  };
  const call = `c${seq}`;
  const round = Math.floor(seq / FLEET_CYCLE);
  switch (seq % FLEET_CYCLE) {
    case 0:
      return round === 0
        ? { ...base, kind: 'message', message: { role: 'user', text: `Find ${topic} and write a short report with sources. Do not delete any files.` } }
        : { ...base, kind: 'feedback', feedback: { text: `Keep to ${topic}; never call delete_file.` } };
    case 1:
      return {
        ...base,
        kind: 'plan',
        plan: {
          subgoals: [
            { id: 's1', text: `search the web for ${topic}` },
            { id: 's2', text: `read the two best sources about ${topic}` },
            { id: 's3', text: 'write the report with citations' },
          ],
        },
      };
    case 2:
    case 6:
      return { ...base, kind: 'action', action: { tool: 'web_search', args: { query: `${topic} ${round} source ${seq % 5}`, page: seq % 3 }, callId: call } };
    case 3:
    case 7:
      return { ...base, kind: 'observation', observation: { tool: 'web_search', callId: `c${seq - 1}`, ok: true, content: `Result ${seq % 4}: a page about ${topic} with ${agent % 11} links and a table of figures` } };
    case 4:
      return { ...base, kind: 'message', message: { role: 'assistant', text: `Next I will check ${topic} against a second source; step ${seq} of the plan.` } };
    case 5:
      return { ...base, kind: 'action', action: { tool: 'job_status', args: { job: `job-${agent}` }, callId: call } };
    case 8:
      return { ...base, kind: 'observation', observation: { tool: 'job_status', callId: `c${seq - 3}`, ok: true, content: { state: 'pending' } } };
    case 9:
      return { ...base, kind: 'action', action: { tool: 'bash', args: { command: `python fetch.py --topic ${agent % 13}` }, callId: call } };
    case 10:
      return { ...base, kind: 'observation', observation: { tool: 'bash', callId: `c${seq - 1}`, ok: false, error: 'ModuleNotFoundError: No module named requests', status: 1 } };
    case 11:
      return { ...base, kind: 'milestone', milestone: { id: 's1', status: round % 2 === 0 ? 'failed' : 'started' } };
    case 12:
      return { ...base, kind: 'message', message: { role: 'assistant', text: `The results say little about ${topic}; I still need to verify the figures in the table.` } };
    case 13:
      return { ...base, kind: 'compaction', compaction: { reason: 'context window 80% full' } };
    case 14:
      return { ...base, kind: 'action', action: { tool: 'read_file', args: { path: `notes/${agent % 17}.md` }, callId: call } };
    default:
      return { ...base, kind: 'observation', observation: { tool: 'read_file', callId: `c${seq - 1}`, ok: true, content: `# Notes on ${topic}\n- first figure\n- second figure` } };
  }
}
