/**
 * escalation-notifier (DESIGN §13): posts each escalation to its tenant's webhook (TenantPolicy.webhook),
 * in a consumer group of its own, so a slow or failing receiver never holds up the pipeline. A failed post
 * (network error, timeout, non-2xx) rejects the batch: the bus retries it with exponential backoff, then
 * dead-letters the escalation to `wayfinder.escalations.v1.dlq` with the reason (its retry policy, chosen
 * where the notifier's bus is built). Posted escalations are logged, so a retry posts only what is not yet
 * accepted; the escalation id is the receiver's idempotency key too. A failure names the webhook by
 * redactUrl only (scheme, host, port): its userinfo and path tokens never reach a log or the DLQ.
 * The post goes out under the operator's egress policy (egressRequest of @wayfinder/config): a webhook
 * outside WAYFINDER_EGRESS_ALLOW, or whose name resolves to a private address the operator did not
 * allow, is refused at send and connect time (a policy's URL was checked when it was set, but names
 * resolve anew).
 */
import { Controller, Inject, Logger, Optional } from '@nestjs/common';
import { egressRequest, type EgressPolicy } from '@wayfinder/config';
import { Payload } from '@nestjs/microservices';
import type { Escalation } from '@wayfinder/contracts';
import { BatchEventPattern } from '@wayfinder/bus';
import { escalationWebhookRequest, redactUrl } from '@wayfinder/history';
import { POLICY_BOOK, type PolicyBook } from '@wayfinder/service-core';
import type { DeliveryLog } from './delivery-log';

export const DELIVERY_LOG = Symbol('wayfinder.delivery-log');
export const WEBHOOK_TIMEOUT_MS = Symbol('wayfinder.webhook-timeout-ms');
/** The operator's egress policy (WAYFINDER_EGRESS_ALLOW / _ALLOW_PRIVATE); none allowed when absent. */
export const WEBHOOK_EGRESS = Symbol('wayfinder.webhook-egress');

@Controller()
export class EscalationNotifierHandler {
  private readonly logger = new Logger('escalation-notifier');

  constructor(
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
    @Inject(DELIVERY_LOG) private readonly log: DeliveryLog,
    @Inject(WEBHOOK_TIMEOUT_MS) private readonly timeoutMs: number,
    @Optional() @Inject(WEBHOOK_EGRESS) private readonly egress: EgressPolicy = { allow: [], allowPrivate: false },
  ) {}

  @BatchEventPattern('wayfinder.escalations.v1')
  async onEscalations(@Payload() batch: Escalation[]): Promise<void> {
    for (const escalation of batch) {
      const webhook = this.policies.tenant(escalation.tenantId)?.webhook;
      if (!webhook) continue;
      if (await this.log.delivered(escalation.tenantId, escalation.eventId)) continue;
      const request = escalationWebhookRequest(escalation, webhook.format, {
        ...(webhook.routingKey !== undefined && { routingKey: webhook.routingKey }),
        ...(webhook.secretHeader !== undefined && { secretHeader: webhook.secretHeader }),
      });
      const where = redactUrl(webhook.url);
      let status: number;
      try {
        const body = Buffer.from(JSON.stringify(request.body));
        const response = await egressRequest(new URL(webhook.url), { method: 'POST', headers: { ...request.headers, 'content-length': String(body.length) }, body, timeoutMs: this.timeoutMs }, this.egress);
        status = response.statusCode ?? 0;
        response.resume(); // the answer's body is not read
      } catch (error) {
        // A socket error's message may quote the URL.
        const message = withoutUrl(error instanceof Error ? error.message : String(error), webhook.url, where);
        throw new Error(`webhook ${where} of tenant ${escalation.tenantId} did not answer: ${message}`);
      }
      if (status < 200 || status >= 300) throw new Error(`webhook ${where} of tenant ${escalation.tenantId} answered ${status}`);
      await this.log.markDelivered(escalation.tenantId, escalation.eventId);
      this.logger.log(`escalation ${escalation.eventId} of ${escalation.tenantId}/${escalation.agentId} posted (${webhook.format})`);
    }
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
