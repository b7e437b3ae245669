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
 * address the operator did not allow, is refused at send and connect time (names resolve anew).
 */
import { Controller, Inject, Logger, type OnModuleDestroy, Optional } from '@nestjs/common';
import { egressRequest, type EgressPolicy } from '@wayfinder/config';
import { Ctx, Payload } from '@nestjs/microservices';
import { dlqTopicOf, type Escalation } from '@wayfinder/contracts';
import { BatchEventPattern, deadLetterHeaders, type Bus, type BusBatchContext, type Delivered } from '@wayfinder/bus';
import { escalationWebhookRequest, redactUrl } from '@wayfinder/history';
import { BUS, POLICY_BOOK, type PolicyBook } from '@wayfinder/service-core';
import type { DeliveryLog } from './delivery-log';
import { DEFAULT_LANE_SETTINGS, TenantDeliveryLanes, type LaneSettings } from './tenant-delivery-lanes';

export const DELIVERY_LOG = Symbol('wayfinder.delivery-log');
export const WEBHOOK_TIMEOUT_MS = Symbol('wayfinder.webhook-timeout-ms');
/** The operator's egress policy (WAYFINDER_EGRESS_ALLOW / _ALLOW_PRIVATE); none allowed when absent. */
export const WEBHOOK_EGRESS = Symbol('wayfinder.webhook-egress');
/** Tries, backoff and bound of each tenant's delivery lane (DEFAULT_LANE_SETTINGS when absent). */
export const WEBHOOK_LANES = Symbol('wayfinder.webhook-lanes');

const ESCALATIONS = 'wayfinder.escalations.v1';

@Controller()
export class EscalationNotifierHandler implements OnModuleDestroy {
  private readonly logger = new Logger('escalation-notifier');
  readonly lanes: TenantDeliveryLanes;

  constructor(
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
    @Inject(DELIVERY_LOG) private readonly log: DeliveryLog,
    @Inject(WEBHOOK_TIMEOUT_MS) private readonly timeoutMs: number,
    @Optional() @Inject(WEBHOOK_EGRESS) private readonly egress: EgressPolicy = { allow: [], allowPrivate: false },
    @Optional() @Inject(BUS) private readonly bus?: Pick<Bus, 'publishRaw'>,
    @Optional() @Inject(WEBHOOK_LANES) lanes: Partial<LaneSettings> = {},
  ) {
    this.lanes = new TenantDeliveryLanes({ ...DEFAULT_LANE_SETTINGS, ...lanes }, (tenantId, error) =>
      this.logger.error(`escalation delivery of tenant ${tenantId} failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  onModuleDestroy(): void {
    this.lanes.stop();
  }

  @BatchEventPattern(ESCALATIONS)
  async onEscalations(@Payload() batch: Escalation[], @Ctx() ctx?: BusBatchContext): Promise<void> {
    const delivered = ctx?.getBatch?.();
    for (let i = 0; i < batch.length; i++) {
      const escalation = batch[i];
      if (!this.policies.tenant(escalation.tenantId)?.webhook) continue;
      if (await this.log.delivered(escalation.tenantId, escalation.eventId)) continue;
      const source = delivered?.[i];
      const submitted = this.lanes.submit(escalation.tenantId, {
        id: escalation.eventId,
        send: () => this.post(escalation),
        giveUp: (reason, attempts) => this.deadLetter(escalation, source, reason, attempts),
      });
      if (submitted === 'full') await this.deadLetter(escalation, source, this.lanes.fullReason(escalation.tenantId), 0);
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

  private async deadLetter(escalation: Escalation, source: Delivered<unknown> | undefined, reason: string, attempts: number): Promise<void> {
    this.logger.warn(`escalation ${escalation.eventId} of ${escalation.tenantId} dead-lettered: ${reason}`);
    if (!this.bus) return;
    const where = { topic: source?.topic ?? ESCALATIONS, partition: source?.partition ?? -1, offset: source?.offset ?? '-1' };
    const key = source?.key ?? `${escalation.tenantId}`;
    await this.bus.publishRaw(dlqTopicOf(ESCALATIONS), key, JSON.stringify(escalation), deadLetterHeaders(where, reason, attempts, source?.headers));
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
