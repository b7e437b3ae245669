/**
 * The query layer over the history store: what the routes and the dashboard answer. Thin: reads from the
 * store, the pure story functions of @wayfinder/history decide.
 */
import {
  AGENT_STATES,
  agentPageOf,
  agentSummaryOf,
  agentTimelineOf,
  correctionStories,
  detectorRatesOf,
  fleetViewOf,
  type AgentPage,
  type AgentPageQuery,
  type DetectorRates,
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

/** One page of the tenant's agents (search, filters, sort, cursor: agent-query.ts); a bad cursor throws a RangeError. */
export async function pageOfAgents(store: HistoryStore, tenantId: string, query: AgentPageQuery): Promise<AgentPage> {
  const all = await facts(store, tenantId, query.taskId);
  return agentPageOf(all.map((f) => f.summary), query);
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

/** The fleet now (optionally of one task), with deviations and corrections per minute by detector over the last 10 minutes. */
export async function fleetView(store: HistoryStore, tenantId: string, nowMs = Date.now(), taskId?: string): Promise<FleetView & { perMinute: DetectorRates }> {
  const all = await facts(store, tenantId, taskId);
  return { ...fleetViewOf(tenantId, all), perMinute: detectorRatesOf(all.map((f) => f.history), nowMs) };
}

/**
 * The tenant a local operator's page opens when it names none: `local` when it has agents, else the
 * first tenant that does (a simulated fleet's), so the nav never leads to an empty tenant.
 */
export async function tenantWithAgents(store: HistoryStore, tenant: TenantContext, named: string | undefined): Promise<string> {
  if (!tenant.local || named !== undefined) return tenant.tenantId;
  const tenants = await store.tenants();
  return tenants.includes(tenant.tenantId) || tenants.length === 0 ? tenant.tenantId : tenants[0];
}
