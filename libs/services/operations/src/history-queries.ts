/**
 * The query layer over the history store: what the routes and the dashboard answer. Thin: reads from the
 * store, the pure story functions of @wayfinder/history decide.
 */
import {
  AGENT_STATES,
  agentSummaryOf,
  agentTimelineOf,
  correctionStories,
  fleetViewOf,
  type AgentState,
  type AgentSummary,
  type AgentTimeline,
  type EscalationRecord,
  type FleetView,
  type HistoryStore,
} from '@wayfinder/history';
import type { TenantContext } from './tenant-context';

export interface AgentsQuery {
  state?: AgentState;
  taskId?: string;
}

export function isAgentState(value: string): value is AgentState {
  return (AGENT_STATES as readonly string[]).includes(value);
}

async function facts(store: HistoryStore, tenantId: string, taskId?: string) {
  const entries = await store.agents(tenantId, taskId === undefined ? {} : { taskId });
  return Promise.all(
    entries.map(async (entry) => {
      const history = await store.agentHistory(tenantId, entry.agentId);
      const stories = correctionStories(history);
      return { summary: agentSummaryOf(tenantId, entry, history, stories), stories, history };
    }),
  );
}

export async function listAgents(store: HistoryStore, tenantId: string, query: AgentsQuery = {}): Promise<AgentSummary[]> {
  const all = await facts(store, tenantId, query.taskId);
  return all.map((f) => f.summary).filter((s) => query.state === undefined || s.state === query.state);
}

export async function agentTimeline(store: HistoryStore, tenantId: string, agentId: string): Promise<AgentTimeline | undefined> {
  const entry = await store.agent(tenantId, agentId);
  if (!entry) return undefined;
  return agentTimelineOf(tenantId, entry, await store.agentHistory(tenantId, agentId));
}

export interface EscalationView extends EscalationRecord {
  readonly open: boolean;
}

export async function listEscalations(store: HistoryStore, tenantId: string, query: { open?: boolean } = {}): Promise<EscalationView[]> {
  const escalations = (await store.tenantHistory(tenantId, { kinds: ['escalation'] })) as EscalationRecord[];
  const resumes = await store.tenantHistory(tenantId, { kinds: ['ack'] });
  const views = escalations.map((e) => ({
    ...e,
    open: !resumes.some((r) => r.kind === 'ack' && r.subject === 'resume' && r.agentId === e.agentId && Date.parse(r.ts) >= Date.parse(e.ts)),
  }));
  return views.filter((v) => query.open === undefined || v.open === query.open).reverse();
}

/**
 * The tenants a request reads: for the local operator with no `?tenantId=`, every tenant with history
 * (local mode sees the whole machine); otherwise only the request's own tenant.
 */
export async function readableTenants(store: HistoryStore, tenant: TenantContext, named: string | undefined): Promise<string[]> {
  return tenant.local && named === undefined ? store.tenants() : [tenant.tenantId];
}

export async function fleetView(store: HistoryStore, tenantId: string): Promise<FleetView> {
  return fleetViewOf(tenantId, await facts(store, tenantId));
}
