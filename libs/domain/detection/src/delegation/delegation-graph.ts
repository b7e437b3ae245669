/**
 * `cross_agent_cycle` (DESIGN §1 "loops that span runs or agents"): the per-tenant delegation graph.
 * It keeps the tenant's live delegation edges — delegations since the last milestone progress of either
 * end — bounded by `policy.crossAgent.maxEdgesPerTenant` (oldest dropped). A new delegation A → B that
 * closes a path B ⇝ A is a cycle; once the live delegations among the cycle's agents reach
 * `crossAgent.warning` (critical at `crossAgent.critical`), every agent in the cycle gets a deviation with
 * the cycle in the evidence. The same sub-task delegated from A to B `crossAgent.sameTaskRepeat` times
 * with no progress (a parent re-spawning the same sub-agent) is one too. Progress by an agent drops the
 * live edges that touch it. Pure and deterministic; state exported per tenant as JSON.
 *
 * Work per signal is bounded whatever a tenant's policy and traffic (issue #29: a tenant allowed 100,000
 * edges made every signal scan them all, once per node of a breadth-first search, and held the consumer
 * its partition shares with other tenants): edges are indexed by both ends, a repeat is found by id, and
 * the search for a closing path looks at most at MAX_SEARCHED edges (a cycle longer or wider than that
 * goes unseen, as one past MAX_PATH always did).
 *
 * It consumes DelegationSignals, so the same class serves the in-process path (steps → signals directly)
 * and a distributed consumer of `wayfinder.delegations.v1` (keyed by tenant: a tenant's graph lives on
 * one instance; per-agent state cannot hold it because a tenant's agents live on other partitions).
 */
import { DEVIATION_SCHEMA, type DelegationSignal, type Deviation, type DeviationLevel, type PolicySettings } from '@wayfinder/contracts';

type CrossAgentSettings = PolicySettings['crossAgent'];

interface Edge {
  from: string;
  to: string;
  subtask?: string;
  seq: number;
  eventId: string;
}

interface AgentSeen {
  taskId: string;
  runId: string | null;
  seq: number;
}

interface TenantGraph {
  /** Live edges by eventId, oldest first. */
  edges: Map<string, Edge>;
  /** The same edges by their ends: from → to → edges (oldest first), and to → from → the same sets. */
  out: Map<string, Map<string, Set<Edge>>>;
  into: Map<string, Map<string, Set<Edge>>>;
  agents: Map<string, AgentSeen>;
  /** Levels already reported per cycle key (sorted agents, or the repeated sub-task), re-armed by progress. */
  reported: Map<string, DeviationLevel>;
}

const MAX_PATH = 16;
/** Edges one search for a closing path may look at. */
export const MAX_SEARCHED = 1_024;

export class DelegationGraph {
  private readonly tenants = new Map<string, TenantGraph>();

  /** Applies one signal; returns the deviations it causes (one per agent in a cycle). */
  onSignal(signal: DelegationSignal, settings: CrossAgentSettings): Deviation[] {
    if (!settings.enabled) return [];
    const graph = this.graphOf(signal.tenantId);
    this.see(graph, signal, settings);
    if (signal.kind === 'progress') {
      removeEdgesOf(graph, signal.agentId);
      for (const key of [...graph.reported.keys()]) if (key.split('\u0000').includes(signal.agentId)) graph.reported.delete(key);
      return [];
    }
    if (!signal.to || signal.to === signal.agentId) return [];
    if (graph.edges.has(signal.eventId)) return []; // a redelivered signal
    const edge: Edge = { from: signal.agentId, to: signal.to, seq: signal.seq, eventId: signal.eventId, ...(signal.subtask && { subtask: signal.subtask }) };
    addEdge(graph, edge);
    while (graph.edges.size > settings.maxEdgesPerTenant) removeEdge(graph, graph.edges.values().next().value as Edge);

    const out: Deviation[] = [];
    const path = this.pathBetween(graph, edge.to, edge.from);
    if (path) {
      // path runs edge.to ⇝ edge.from; the cycle starts at the delegating agent.
      const cycle = [edge.from, ...path.slice(0, -1)];
      const members = new Set(cycle);
      const live: Edge[] = [];
      for (const from of members) for (const to of members) live.push(...(graph.out.get(from)?.get(to) ?? []));
      live.sort((a, b) => (RANK.get(a) ?? 0) - (RANK.get(b) ?? 0));
      out.push(...this.report(graph, signal, [...members].sort().join('\u0000'), cycle, live, settings.warning, settings.critical, 'cycle'));
    }
    if (edge.subtask) {
      const same = [...(graph.out.get(edge.from)?.get(edge.to) ?? [])].filter((e) => e.subtask === edge.subtask);
      const repeat = settings.sameTaskRepeat;
      out.push(...this.report(graph, signal, `${edge.from}\u0000${edge.to}\u0000task:${edge.subtask}`, [edge.from, edge.to], same, repeat, repeat * 2, 'same_subtask'));
    }
    return out;
  }

  exportTenant(tenantId: string): unknown {
    const g = this.tenants.get(tenantId);
    if (!g) return undefined;
    return { edges: [...g.edges.values()], agents: Object.fromEntries(g.agents), reported: Object.fromEntries(g.reported) };
  }

  importTenant(tenantId: string, raw: unknown): void {
    this.tenants.delete(tenantId);
    if (!raw || typeof raw !== 'object') return;
    const r = raw as { edges?: unknown; agents?: unknown; reported?: unknown };
    const edges = Array.isArray(r.edges) ? r.edges.filter((e): e is Edge => !!e && typeof e.from === 'string' && typeof e.to === 'string' && typeof e.seq === 'number' && typeof e.eventId === 'string') : [];
    const agents = new Map<string, AgentSeen>();
    if (r.agents && typeof r.agents === 'object') {
      for (const [id, a] of Object.entries(r.agents as Record<string, AgentSeen>)) if (a && typeof a.taskId === 'string' && typeof a.seq === 'number') agents.set(id, a);
    }
    const reported = new Map<string, DeviationLevel>();
    if (r.reported && typeof r.reported === 'object') {
      for (const [k, v] of Object.entries(r.reported as Record<string, unknown>)) if (v === 'warning' || v === 'critical') reported.set(k, v);
    }
    const graph: TenantGraph = { edges: new Map(), out: new Map(), into: new Map(), agents, reported };
    for (const edge of edges) if (!graph.edges.has(edge.eventId)) addEdge(graph, edge);
    this.tenants.set(tenantId, graph);
  }

  forgetTenant(tenantId: string): void {
    this.tenants.delete(tenantId);
  }

  private graphOf(tenantId: string): TenantGraph {
    let g = this.tenants.get(tenantId);
    if (!g) {
      g = { edges: new Map(), out: new Map(), into: new Map(), agents: new Map(), reported: new Map() };
      this.tenants.set(tenantId, g);
    }
    return g;
  }

  private see(graph: TenantGraph, signal: DelegationSignal, settings: CrossAgentSettings): void {
    graph.agents.delete(signal.agentId);
    graph.agents.set(signal.agentId, { taskId: signal.taskId, runId: signal.runId, seq: signal.seq });
    // Agents are remembered as long as edges can name them.
    while (graph.agents.size > settings.maxEdgesPerTenant * 2) graph.agents.delete(graph.agents.keys().next().value as string);
  }

  /** A path from → … → to over live edges (breadth first, bounded in depth and in edges looked at), as the agents after `from`. */
  private pathBetween(graph: TenantGraph, from: string, to: string): string[] | undefined {
    const previous = new Map<string, string>([[from, '']]);
    const pathTo = (node: string) => {
      const path = [to];
      for (let at = node; at !== ''; at = previous.get(at) ?? '') path.unshift(at);
      return path;
    };
    let searched = 0;
    let frontier = [from];
    for (let depth = 0; depth < MAX_PATH && frontier.length > 0; depth++) {
      const next: string[] = [];
      for (const node of frontier) {
        const targets = graph.out.get(node);
        if (!targets) continue;
        if (targets.has(to)) return pathTo(node);
        for (const target of targets.keys()) {
          if (++searched > MAX_SEARCHED) return undefined;
          if (previous.has(target)) continue;
          previous.set(target, node);
          next.push(target);
        }
      }
      frontier = next;
    }
    return undefined;
  }

  private report(graph: TenantGraph, signal: DelegationSignal, key: string, cycle: string[], edges: Edge[], warning: number, critical: number, pattern: 'cycle' | 'same_subtask'): Deviation[] {
    const count = edges.length;
    const level: DeviationLevel | undefined = count >= critical ? 'critical' : count >= warning ? 'warning' : undefined;
    if (!level) return [];
    const already = graph.reported.get(key);
    if (already === 'critical' || already === level) return [];
    graph.reported.set(key, level);
    const members = [...new Set(cycle)];
    const evidence = {
      pattern,
      cycle: [...cycle, cycle[0]],
      delegations: edges.slice(-32).map((e) => ({ from: e.from, to: e.to, seq: e.seq, ...(e.subtask && { subtask: e.subtask.slice(0, 120) }) })),
      ...(pattern === 'same_subtask' && edges[0]?.subtask && { subtask: edges[0].subtask.slice(0, 200) }),
    };
    const shown = [...cycle, cycle[0]].join(' → ');
    const message =
      pattern === 'cycle'
        ? `Agents ${shown} delegated work around a cycle ${count} times with no milestone progress in between.`
        : `${cycle[0]} delegated the same sub-task to ${cycle[1]} ${count} times with no milestone progress.`;
    return members.map((agentId) => {
      const seen = graph.agents.get(agentId);
      const own = edges.filter((e) => e.from === agentId);
      const atSeq = agentId === signal.agentId ? signal.seq : (seen?.seq ?? 0);
      return {
        schema: DEVIATION_SCHEMA,
        eventId: `${signal.eventId}:cross_agent_cycle:${level}:${agentId}`.slice(0, 128),
        tenantId: signal.tenantId,
        ts: signal.ts,
        agentId,
        taskId: seen?.taskId ?? signal.taskId,
        runId: seen?.runId ?? null,
        detector: 'cross_agent_cycle',
        level,
        count,
        atSeq,
        loopStartSeq: Math.min(atSeq, own[0]?.seq ?? atSeq),
        evidence,
        message,
      };
    });
  }
}

/** The order edges were added in (live edges are reported oldest first, as they were added). */
const RANK = new WeakMap<Edge, number>();
let added = 0;

function addEdge(graph: TenantGraph, edge: Edge): void {
  graph.edges.set(edge.eventId, edge);
  RANK.set(edge, added++);
  let targets = graph.out.get(edge.from);
  if (!targets) graph.out.set(edge.from, (targets = new Map()));
  let set = targets.get(edge.to);
  if (!set) {
    set = new Set();
    targets.set(edge.to, set);
    let sources = graph.into.get(edge.to);
    if (!sources) graph.into.set(edge.to, (sources = new Map()));
    sources.set(edge.from, set);
  }
  set.add(edge);
}

function removeEdge(graph: TenantGraph, edge: Edge): void {
  graph.edges.delete(edge.eventId);
  const set = graph.out.get(edge.from)?.get(edge.to);
  if (!set?.delete(edge) || set.size > 0) return;
  unlink(graph.out, edge.from, edge.to);
  unlink(graph.into, edge.to, edge.from);
}

/** Every edge from or to the agent (its progress ends the delegations around it). */
function removeEdgesOf(graph: TenantGraph, agentId: string): void {
  for (const [to, set] of graph.out.get(agentId) ?? []) {
    for (const e of set) graph.edges.delete(e.eventId);
    unlink(graph.into, to, agentId);
  }
  graph.out.delete(agentId);
  for (const [from, set] of graph.into.get(agentId) ?? []) {
    for (const e of set) graph.edges.delete(e.eventId);
    unlink(graph.out, from, agentId);
  }
  graph.into.delete(agentId);
}

function unlink(index: Map<string, Map<string, Set<Edge>>>, a: string, b: string): void {
  const byOther = index.get(a);
  byOther?.delete(b);
  if (byOther?.size === 0) index.delete(a);
}
