/**
 * escalation-notifier (DESIGN §13): posts each escalation to its tenant's webhook (TenantPolicy.webhook),
 * in a consumer group of its own, so a slow or failing receiver never holds up the pipeline. Each tenant's
 * deliveries go through a lane of their own (TenantDeliveryLanes): sent in order with a timeout, retried
 * with exponential backoff, then dead-lettered to `wayfinder.escalations.v1.dlq` with the reason. The batch
 * is done once its escalations are queued, so one tenant's hanging receiver delays only its own deliveries
 * (issue #29); a lane past its bound dead-letters at once. Posted escalations are logged, so a redelivered
 * batch posts only what is not yet accepted; the escalation id is the receiver's idempotency key too. A
 * failure names the webhook by redactUrl only (scheme, host, port): its userinfo and path tokens never
 * reach a log or the DLQ. The post goes out under the operator's egress policy (egressRequest of
 * @wayfinder/config): a webhook outside WAYFINDER_EGRESS_ALLOW, or whose name resolves to a private
 * address the operator did not allow, is refused at send and connect time (names resolve anew). Each
 * queued escalation is recorded in the pending deliveries (Redis in distributed mode) until it is posted
 * or given up, so a restart or a dead instance does not lose it: its lease runs out and an instance
 * running, or this one restarted, queues it again (pending-deliveries.ts).
 */
import { Controller, Inject, Logger, type OnApplicationBootstrap, type OnModuleDestroy, Optional } from '@nestjs/common';
import { egressRequest, type EgressPolicy } from '@wayfinder/config';
import { Ctx, Payload } from '@nestjs/microservices';
import { dlqTopicOf, type Escalation } from '@wayfinder/contracts';
import { BatchEventPattern, deadLetterHeaders, type Bus, type BusBatchContext } from '@wayfinder/bus';
import { escalationWebhookRequest, redactUrl } from '@wayfinder/history';
import { BUS, PeriodicTask, POLICY_BOOK, type PolicyBook } from '@wayfinder/service-core';
import type { DeliveryLog } from './delivery-log';
import { InMemoryPendingDeliveries, type PendingDeliveries, type PendingDelivery, type PendingSource } from './pending-deliveries';
import { DEFAULT_LANE_SETTINGS, TenantDeliveryLanes, type LaneSettings } from './tenant-delivery-lanes';

export const DELIVERY_LOG = Symbol('wayfinder.delivery-log');
export const WEBHOOK_TIMEOUT_MS = Symbol('wayfinder.webhook-timeout-ms');
/** The operator's egress policy (WAYFINDER_EGRESS_ALLOW / _ALLOW_PRIVATE); none allowed when absent. */
export const WEBHOOK_EGRESS = Symbol('wayfinder.webhook-egress');
/** Tries, backoff and bound of each tenant's delivery lane (DEFAULT_LANE_SETTINGS when absent). */
export const WEBHOOK_LANES = Symbol('wayfinder.webhook-lanes');
/** Where queued deliveries are kept until posted or given up (InMemoryPendingDeliveries when absent). */
export const PENDING_DELIVERIES = Symbol('wayfinder.pending-deliveries');

const ESCALATIONS = 'wayfinder.escalations.v1';

@Controller()
export class EscalationNotifierHandler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('escalation-notifier');
  readonly lanes: TenantDeliveryLanes;
  readonly pending: PendingDeliveries;
  private readonly leases: PeriodicTask | undefined;

  constructor(
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
    @Inject(DELIVERY_LOG) private readonly log: DeliveryLog,
    @Inject(WEBHOOK_TIMEOUT_MS) private readonly timeoutMs: number,
    @Optional() @Inject(WEBHOOK_EGRESS) private readonly egress: EgressPolicy = { allow: [], allowPrivate: false },
    @Optional() @Inject(BUS) private readonly bus?: Pick<Bus, 'publishRaw'>,
    @Optional() @Inject(WEBHOOK_LANES) lanes: Partial<LaneSettings> = {},
    @Optional() @Inject(PENDING_DELIVERIES) pending?: PendingDeliveries,
  ) {
    this.lanes = new TenantDeliveryLanes({ ...DEFAULT_LANE_SETTINGS, ...lanes }, (tenantId, error) =>
      this.logger.error(`escalation delivery of tenant ${tenantId} failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    this.pending = pending ?? new InMemoryPendingDeliveries();
    const everyMs = this.pending.renewEveryMs;
    this.leases =
      everyMs === undefined
        ? undefined
        : new PeriodicTask({ name: 'pending-deliveries', everyMs, run: () => this.renewAndRecover(), onError: (_name, error) => this.logger.error(`pending deliveries: ${error instanceof Error ? error.message : String(error)}`) });
  }

  /** Takes over, at once, the deliveries a stopped instance (this one before a restart) left waiting. */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.leases) return;
    await this.leases.runOnce();
    this.leases.start();
  }

  async onModuleDestroy(): Promise<void> {
    // What is still waiting stays in the pending deliveries: its lease runs out and it is queued again.
    await this.leases?.stop();
    this.lanes.stop();
  }

  /** Renews this instance's leases, then queues the deliveries whose owner stopped renewing. */
  async renewAndRecover(): Promise<number> {
    await this.pending.renew();
    const orphans = await this.pending.claimOrphans();
    for (const orphan of orphans) {
      const { tenantId, eventId } = orphan.escalation;
      if (await this.log.delivered(tenantId, eventId)) await this.pending.remove(tenantId, eventId);
      else await this.queue(orphan);
    }
    if (orphans.length > 0) this.logger.log(`${orphans.length} escalation deliveries left waiting by a stopped notifier queued again`);
    return orphans.length;
  }

  @BatchEventPattern(ESCALATIONS)
  async onEscalations(@Payload() batch: Escalation[], @Ctx() ctx?: BusBatchContext): Promise<void> {
    const delivered = ctx?.getBatch?.();
    for (let i = 0; i < batch.length; i++) {
      const escalation = batch[i];
      if (!this.policies.tenant(escalation.tenantId)?.webhook) continue;
      if (await this.log.delivered(escalation.tenantId, escalation.eventId)) continue;
      const from = delivered?.[i];
      await this.queue({ escalation, ...(from && { source: { topic: from.topic, partition: from.partition, offset: from.offset, ...(from.key !== null && { key: from.key }) } }) }, from?.headers);
    }
  }

  /**
   * Records the delivery as pending (before the batch may commit), then hands it to its tenant's lane;
   * it leaves the pending deliveries once posted or given up.
   */
  private async queue(delivery: PendingDelivery, headers?: Readonly<Record<string, string>>): Promise<void> {
    const { escalation, source } = delivery;
    const { tenantId, eventId } = escalation;
    await this.pending.add(delivery);
    const submitted = this.lanes.submit(tenantId, {
      id: eventId,
      send: async () => {
        // Accepted already (by another instance that claimed it too, or before a failed removal): not posted again.
        if (!(await this.log.delivered(tenantId, eventId))) await this.post(escalation);
        await this.pending.remove(tenantId, eventId);
      },
      giveUp: async (reason, attempts) => {
        await this.deadLetter(escalation, source, headers, reason, attempts);
        await this.pending.remove(tenantId, eventId);
      },
    });
    if (submitted === 'full') {
      await this.deadLetter(escalation, source, headers, this.lanes.fullReason(tenantId), 0);
      await this.pending.remove(tenantId, eventId);
    }
  }

  /** One try: resolves once the tenant's receiver accepted the escalation (2xx). */
  private async post(escalation: Escalation): Promise<void> {
    // Read at every try: a tenant who fixes its webhook gets the next try at the new address.
    const webhook = this.policies.tenant(escalation.tenantId)?.webhook;
    if (!webhook) return;
    const request = escalationWebhookRequest(escalation, webhook.format, {
      ...(webhook.routingKey !== undefined && { routingKey: webhook.routingKey }),
      ...(webhook.secretHeader !== undefined && { secretHeader: webhook.secretHeader }),
    });
    const where = redactUrl(webhook.url);
    let status: number;
    // The socket's inactivity timeout does not bound a receiver that trickles its headers: a deadline does.
    const deadline = AbortSignal.timeout(this.timeoutMs);
    try {
      const body = Buffer.from(JSON.stringify(request.body));
      const response = await egressRequest(new URL(webhook.url), { method: 'POST', headers: { ...request.headers, 'content-length': String(body.length) }, body, timeoutMs: this.timeoutMs, abort: deadline }, this.egress);
      status = response.statusCode ?? 0;
      response.resume(); // the answer's body is not read
    } catch (error) {
      // A socket error's message may quote the URL.
      const message = deadline.aborted ? `did not answer within ${this.timeoutMs} ms` : withoutUrl(error instanceof Error ? error.message : String(error), webhook.url, where);
      throw new Error(`webhook ${where} of tenant ${escalation.tenantId} did not answer: ${message}`);
    }
    if (status < 200 || status >= 300) throw new Error(`webhook ${where} of tenant ${escalation.tenantId} answered ${status}`);
    await this.log.markDelivered(escalation.tenantId, escalation.eventId);
    this.logger.log(`escalation ${escalation.eventId} of ${escalation.tenantId}/${escalation.agentId} posted (${webhook.format})`);
  }

  private async deadLetter(escalation: Escalation, source: PendingSource | undefined, headers: Readonly<Record<string, string>> | undefined, reason: string, attempts: number): Promise<void> {
    this.logger.warn(`escalation ${escalation.eventId} of ${escalation.tenantId} dead-lettered: ${reason}`);
    if (!this.bus) return;
    const where = { topic: source?.topic ?? ESCALATIONS, partition: source?.partition ?? -1, offset: source?.offset ?? '-1' };
    const key = source?.key ?? `${escalation.tenantId}`;
    await this.bus.publishRaw(dlqTopicOf(ESCALATIONS), key, JSON.stringify(escalation), deadLetterHeaders(where, reason, attempts, headers));
  }
}

/** The text with the URL (as written and as normalized) replaced by its redacted form. */
function withoutUrl(text: string, url: string, redacted: string): string {
  let out = text.split(url).join(redacted);
  try {
    out = out.split(new URL(url).href).join(redacted);
  } catch {
    // not a URL: nothing else to replace
  }
  return out;
}
