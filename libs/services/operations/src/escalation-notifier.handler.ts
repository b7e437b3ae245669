/**
 * escalation-notifier (DESIGN §13): posts each escalation to its tenant's webhook (TenantPolicy.webhook),
 * in a consumer group of its own, so a slow or failing receiver never holds up the pipeline. A failed post
 * (network error, timeout, non-2xx) rejects the batch: the bus retries it with exponential backoff, then
 * dead-letters the escalation to `wayfinder.escalations.v1.dlq` with the reason (its retry policy, chosen
 * where the notifier's bus is built). Posted escalations are logged, so a retry posts only what is not yet
 * accepted; the escalation id is the receiver's idempotency key too. A failure names the webhook by
 * redactUrl only (scheme, host, port): its userinfo and path tokens never reach a log or the DLQ.
 */
import { Controller, Inject, Logger } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { Escalation } from '@wayfinder/contracts';
import { BatchEventPattern } from '@wayfinder/bus';
import { escalationWebhookRequest, redactUrl } from '@wayfinder/history';
import { POLICY_BOOK, type PolicyBook } from '@wayfinder/service-core';
import type { DeliveryLog } from './delivery-log';

export const DELIVERY_LOG = Symbol('wayfinder.delivery-log');
export const WEBHOOK_TIMEOUT_MS = Symbol('wayfinder.webhook-timeout-ms');

@Controller()
export class EscalationNotifierHandler {
  private readonly logger = new Logger('escalation-notifier');

  constructor(
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
    @Inject(DELIVERY_LOG) private readonly log: DeliveryLog,
    @Inject(WEBHOOK_TIMEOUT_MS) private readonly timeoutMs: number,
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
      let response: Response;
      try {
        response = await fetch(webhook.url, { method: 'POST', headers: request.headers, body: JSON.stringify(request.body), signal: AbortSignal.timeout(this.timeoutMs) });
      } catch (error) {
        // fetch's own message may quote the URL (e.g. "… a URL that includes credentials: <url>").
        const message = withoutUrl(error instanceof Error ? error.message : String(error), webhook.url, where);
        throw new Error(`webhook ${where} of tenant ${escalation.tenantId} did not answer: ${message}`);
      }
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) throw new Error(`webhook ${where} of tenant ${escalation.tenantId} answered ${response.status}`);
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
