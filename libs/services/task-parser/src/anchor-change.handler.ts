/**
 * Dynamic anchors in distributed mode: the task-parser owns the maps, so it applies anchor changes.
 * A `proposed` change (published by the state-localizer from a feedback or plan step) is applied when
 * the policy of the proposing agent has `anchors.autoAccept`; a `confirmed` one (published by the gateway
 * for `POST /v1/agents/{agentId}/anchors/{anchorId}`) is applied as the person's decision and must say
 * what the anchor becomes (`to`): this service keeps no pending proposals, so a restart loses nothing.
 * The new map version goes to the store and the compacted maps topic; a change for an unknown task or
 * anchor goes to the DLQ with the reason. Applying is idempotent (the map records applied proposal ids).
 */
import { Controller, Inject, Logger } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { AnchorChange } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import { BusContext } from '@wayfinder/bus';
import { applyAnchorChange } from '@wayfinder/cognitive-map';
import { BUS, MAP_STORE, POLICY_BOOK, deadLetter, type MapStore, type PolicyBook } from '@wayfinder/service-core';

@Controller()
export class AnchorChangeHandler {
  private readonly logger = new Logger('task-parser');

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(MAP_STORE) private readonly maps: MapStore,
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
  ) {}

  @EventPattern('wayfinder.anchor-changes.v1')
  async onAnchorChange(@Payload() change: AnchorChange, @Ctx() context: BusContext): Promise<void> {
    if (change.kind === 'rejected') return;
    const map = await this.maps.get(change.tenantId, change.taskId);
    const refuse = (reason: string) => {
      this.logger.warn(`tenant ${change.tenantId} task ${change.taskId} anchor change ${change.proposalId} refused: ${reason}`);
      return deadLetter(this.bus, context.getDelivered(), reason);
    };
    if (!map) return refuse(`no map for task ${change.taskId}`);
    if (!map.anchors.some((a) => a.id === change.anchorId)) return refuse(`anchorId: no anchor ${change.anchorId} on task ${change.taskId}`);
    if (change.kind === 'proposed' && !this.policies.policyOf(change.tenantId, change.taskId, change.agentId ?? '').anchors.autoAccept) return;
    if (Object.keys(change.to).length === 0) return refuse('to: a confirmed anchor change must say what the anchor becomes');
    const next = applyAnchorChange(map, { ...change, acceptedBy: change.kind === 'proposed' ? 'policy' : 'user' }, { ts: change.ts });
    if (next === map) return; // already applied, or changes nothing
    if (await this.maps.put(next)) await this.bus.publish('wayfinder.maps.v1', [next]);
  }
}
