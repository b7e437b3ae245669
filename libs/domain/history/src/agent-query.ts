/**
 * The fleet's agents as a person (or a script) asks for them: searched by agent or task id, filtered by
 * state and detector, sorted, and cut into pages with an opaque cursor (pure). The cursor names the last
 * agent of the page by its sort key, not an offset, so agents arriving between two pages neither repeat
 * nor push others out of the next page.
 */
import type { DetectorName } from '@wayfinder/contracts';
import type { AgentState, AgentSummary } from './agent-story';

/** attention: frozen, looping, recovering, working, done (the agents needing a person first), newest first within each. */
export const AGENT_SORTS = ['attention', 'lastSeen', 'agentId', 'deviations'] as const;
export type AgentSort = (typeof AGENT_SORTS)[number];

export interface AgentPageQuery {
  /** Case-insensitive substring of the agent id or the task id. */
  readonly search?: string;
  readonly state?: AgentState;
  readonly taskId?: string;
  readonly detector?: DetectorName;
  readonly sort?: AgentSort;
  readonly limit?: number;
  readonly cursor?: string;
}

export interface AgentPage {
  readonly agents: AgentSummary[];
  /** Agents matching the query, over every page. */
  readonly total: number;
  /** Pass as `cursor` for the next page; null on the last one. */
  readonly nextCursor: string | null;
}

export const DEFAULT_AGENT_PAGE = 50;
export const MAX_AGENT_PAGE = 500;

const ATTENTION: Readonly<Record<AgentState, number>> = { frozen: 0, looping: 1, recovering: 2, working: 3, done: 4 };

type SortKey = Array<string | number>;

function keyOf(a: AgentSummary, sort: AgentSort): SortKey {
  const newest = -Date.parse(a.lastSeen);
  switch (sort) {
    case 'attention':
      return [ATTENTION[a.state], newest, a.agentId];
    case 'lastSeen':
      return [newest, a.agentId];
    case 'agentId':
      return [a.agentId];
    case 'deviations':
      return [-a.deviations, newest, a.agentId];
  }
}

function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    return typeof x === 'number' && typeof y === 'number' ? x - y : String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}

export function encodeAgentCursor(sort: AgentSort, key: SortKey): string {
  return Buffer.from(JSON.stringify([sort, ...key])).toString('base64url');
}

/** The cursor's sort key, or a reason it is not one of ours (for the 400 naming `cursor`). */
export function decodeAgentCursor(cursor: string, sort: AgentSort): SortKey | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return 'cursor is not one this API gave';
  }
  if (!Array.isArray(parsed) || parsed.length < 2 || !parsed.every((p) => typeof p === 'string' || typeof p === 'number')) return 'cursor is not one this API gave';
  if (parsed[0] !== sort) return `cursor was given for sort=${String(parsed[0])}, not sort=${sort}`;
  return parsed.slice(1) as SortKey;
}

/** One page of the agents matching `query`; a bad cursor throws a RangeError naming it. */
export function agentPageOf(summaries: readonly AgentSummary[], query: AgentPageQuery = {}): AgentPage {
  const sort = query.sort ?? 'attention';
  const limit = Math.max(1, query.limit ?? DEFAULT_AGENT_PAGE);
  const needle = query.search?.trim().toLowerCase() ?? '';
  const matching = summaries
    .filter((a) => query.state === undefined || a.state === query.state)
    .filter((a) => query.taskId === undefined || a.taskId === query.taskId)
    .filter((a) => query.detector === undefined || a.detectors.includes(query.detector))
    .filter((a) => needle === '' || a.agentId.toLowerCase().includes(needle) || a.taskId.toLowerCase().includes(needle))
    .map((a) => ({ a, key: keyOf(a, sort) }))
    .sort((x, y) => compareKeys(x.key, y.key));
  let from = 0;
  if (query.cursor !== undefined) {
    const after = decodeAgentCursor(query.cursor, sort);
    if (typeof after === 'string') throw new RangeError(after);
    from = matching.findIndex((m) => compareKeys(m.key, after) > 0);
    if (from < 0) from = matching.length;
  }
  const page = matching.slice(from, from + limit);
  const more = from + limit < matching.length;
  return { agents: page.map((m) => m.a), total: matching.length, nextCursor: more ? encodeAgentCursor(sort, page[page.length - 1].key) : null };
}

export function isAgentSort(value: string): value is AgentSort {
  return (AGENT_SORTS as readonly string[]).includes(value);
}
