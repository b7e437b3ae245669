/**
 * cross_agent_cycle in the services (DESIGN §5.3, §7). Agents of one tenant live on different partitions
 * and instances, so per-agent detector state cannot see a delegation cycle. The localized handler turns
 * each agent's steps into DelegationSignals (a delegation, or milestone progress) and publishes them on
 * `wayfinder.delegations.v1`, keyed by tenant; this handler consumes them, so one instance holds each
 * tenant's bounded DelegationGraph, and publishes the deviations — one per agent in a cycle — on the
 * deviations topic, keyed by agent, for the correction engine that owns each agent.
 * The graph lives in memory (bounded per tenant by `crossAgent.maxEdgesPerTenant`); a restart forgets the
 * live edges, so a cycle in flight is seen again only from its next delegations (see the report).
 */
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { DelegationSignal, Deviation } from '@wayfinder/contracts';
import { BatchEventPattern, type Bus } from '@wayfinder/bus';
import { DelegationGraph } from '@wayfinder/detection';
import { BUS, POLICY_BOOK, type PolicyBook } from '@wayfinder/service-core';

@Controller()
export class DelegationsHandler {
  readonly graph = new DelegationGraph();

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
  ) {}

  @BatchEventPattern('wayfinder.delegations.v1')
  async onDelegations(@Payload() batch: DelegationSignal[]): Promise<void> {
    const deviations: Deviation[] = [];
    for (const signal of batch) {
      const settings = this.policies.policyOf(signal.tenantId, signal.taskId, signal.agentId).crossAgent;
      deviations.push(...this.graph.onSignal(signal, settings));
    }
    if (deviations.length > 0) await this.bus.publish('wayfinder.deviations.v1', deviations);
  }
}
