/** `GET /v1/agents`'s query string read into an AgentPageQuery, or `"<field> <why>"` for the 400 naming it. */
import { DetectorName } from '@wayfinder/contracts';
import { AGENT_SORTS, AGENT_STATES, isAgentSort, MAX_AGENT_PAGE, type AgentPageQuery, type AgentState } from '@wayfinder/history';

export function agentsQueryOf(query: Record<string, unknown>): AgentPageQuery | string {
  const text = (name: string): string | undefined | null => {
    const v = query[name];
    return v === undefined ? undefined : typeof v === 'string' ? v : null;
  };
  const out: { -readonly [K in keyof AgentPageQuery]: AgentPageQuery[K] } = {};
  for (const name of ['q', 'state', 'task', 'detector', 'sort', 'limit', 'cursor']) if (text(name) === null) return `${name} ${name} must be given once`;
  const q = text('q');
  if (q) out.search = q;
  const state = text('state');
  if (state !== undefined && state !== null) {
    if (!(AGENT_STATES as readonly string[]).includes(state)) return `state state must be one of ${AGENT_STATES.join(', ')}`;
    out.state = state as AgentState;
  }
  const task = text('task');
  if (task) out.taskId = task;
  const detector = text('detector');
  if (detector) {
    const parsed = DetectorName.safeParse(detector);
    if (!parsed.success) return `detector detector must be one of ${DetectorName.options.join(', ')}`;
    out.detector = parsed.data;
  }
  const sort = text('sort');
  if (sort) {
    if (!isAgentSort(sort)) return `sort sort must be one of ${AGENT_SORTS.join(', ')}`;
    out.sort = sort;
  }
  const limit = text('limit');
  if (limit !== undefined && limit !== null) {
    const n = Number(limit);
    if (!/^\d+$/.test(limit) || n < 1 || n > MAX_AGENT_PAGE) return `limit limit must be a whole number from 1 to ${MAX_AGENT_PAGE}`;
    out.limit = n;
  }
  const cursor = text('cursor');
  if (cursor) out.cursor = cursor;
  // No limit and no cursor: every matching agent, as the API answered before it had pages.
  if (out.limit === undefined && out.cursor === undefined) out.limit = Number.MAX_SAFE_INTEGER;
  return out;
}
