/**
 * cross_agent_cycle in the services (DESIGN §5.3, §7). Agents of one tenant live on different partitions
 * and instances, so per-agent state cannot see a delegation cycle. The navigator (distributed) or the
 * detector worker's localized handler turns each agent's steps into DelegationSignals (a delegation, or
 * milestone progress) and publishes them on `wayfinder.delegations.v1`, keyed by tenant; this handler
 * (in either service) consumes them, so one instance holds each tenant's bounded DelegationGraph, and
 * publishes the deviations — one per agent in a cycle — on the deviations topic, keyed by agent, for the
 * ladder that owns each agent (the navigator's, or the correction engine's).
 * The graph is bounded per tenant (`crossAgent.maxEdgesPerTenant`) and, with a detector state store
 * (Redis in distributed mode), written back after each batch and restored when another instance wrote it
 * since, like per-agent detector state: a restart or a partition move changes no decision.
 */
import { Controller, Inject, Logger, Optional } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { DelegationSignal, Deviation } from '@wayfinder/contracts';
import { BatchEventPattern, type Bus } from '@wayfinder/bus';
import { DelegationGraph } from '@wayfinder/detection';
import type { PolicyBook } from '@wayfinder/detection';
import type { AgentRef, AgentStateStore } from '../state/agent-state.store';
import { BUS, POLICY_BOOK } from '../tokens';

/** Where the tenants' graphs are kept between processes (the detector state's store: Redis distributed, none embedded). */
export const DELEGATION_GRAPH_STORE = Symbol('wayfinder.delegation-graph-store');

/**
 * The store key of a tenant's graph: stored like an agent's state under an id longer than any agent id
 * the contracts accept (128 characters), so it can never collide with a real agent.
 */
export const DELEGATION_GRAPH_REF = '#delegation-graph'.padEnd(129, '#');

@Controller()
export class DelegationsHandler {
  readonly graph = new DelegationGraph();
  private readonly logger = new Logger('detector-worker');
  /** Stored version of each tenant's graph as this instance last read or wrote it. */
  private readonly known = new Map<string, number>();

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
    @Optional() @Inject(DELEGATION_GRAPH_STORE) private readonly store?: AgentStateStore,
  ) {}

  @BatchEventPattern('wayfinder.delegations.v1')
  async onDelegations(@Payload() batch: DelegationSignal[]): Promise<void> {
    const tenants: AgentRef[] = [...new Set(batch.map((s) => s.tenantId))].map((tenantId) => ({ tenantId, agentId: DELEGATION_GRAPH_REF }));
    if (this.store) await this.restoreStale(this.store, tenants);
    const deviations: Deviation[] = [];
    for (const signal of batch) {
      const settings = this.policies.policyOf(signal.tenantId, signal.taskId, signal.agentId).crossAgent;
      deviations.push(...this.graph.onSignal(signal, settings));
    }
    if (deviations.length > 0) await this.bus.publish('wayfinder.deviations.v1', deviations);
    if (this.store) await this.persist(this.store, tenants);
  }

  private async restoreStale(store: AgentStateStore, tenants: AgentRef[]): Promise<void> {
    const versions = await store.versions(tenants);
    const stale = tenants.filter((t, i) => versions[i] !== (this.known.get(t.tenantId) ?? 0));
    if (stale.length === 0) return;
    const loaded = await store.load(stale);
    stale.forEach((t, i) => {
      const stored = loaded[i];
      if (!stored) {
        this.graph.forgetTenant(t.tenantId);
        this.known.delete(t.tenantId);
        return;
      }
      try {
        this.graph.importTenant(t.tenantId, JSON.parse(Buffer.from(stored.state).toString('utf8')));
      } catch {
        this.logger.warn(`unreadable delegation graph of tenant ${t.tenantId}: its cycle detection starts over`);
        this.graph.forgetTenant(t.tenantId);
      }
      this.known.set(t.tenantId, stored.version);
    });
  }

  private async persist(store: AgentStateStore, tenants: AgentRef[]): Promise<void> {
    const writes = tenants.flatMap((t) => {
      const state = this.graph.exportTenant(t.tenantId);
      return state === undefined ? [] : [{ ...t, state: new Uint8Array(Buffer.from(JSON.stringify(state), 'utf8')) }];
    });
    if (writes.length === 0) return;
    const versions = await store.save(writes);
    writes.forEach((w, i) => this.known.set(w.tenantId, versions[i]));
  }
}
