/**
 * The body a tenant's webhook receives for an escalation (DESIGN §13), by format: a generic JSON
 * document, a Slack incoming-webhook message, or a PagerDuty Events v2 trigger. The escalation's id is
 * the idempotency key everywhere (PagerDuty's `dedup_key`, the `Idempotency-Key` header), so a receiver
 * that sees a retry can tell it from a new escalation.
 */
import type { Escalation } from '@wayfinder/contracts';

export type WebhookFormat = 'generic' | 'slack' | 'pagerduty';

export interface WebhookRequest {
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;
}

function headline(e: Escalation): string {
  return `Wayfinder froze agent ${e.agentId} (tenant ${e.tenantId}, task ${e.taskId}): ${e.reason}`;
}

export function escalationWebhookRequest(e: Escalation, format: WebhookFormat, options: { routingKey?: string; secretHeader?: { name: string; value: string } } = {}): WebhookRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'idempotency-key': e.eventId };
  if (options.secretHeader) headers[options.secretHeader.name.toLowerCase()] = options.secretHeader.value;
  const deviations = e.deviations.map((d) => ({ detector: d.detector, level: d.level, atSeq: d.atSeq, loopStartSeq: d.loopStartSeq, message: d.message }));
  const tried = e.correctionsTried.map((c) => c.action);
  switch (format) {
    case 'generic':
      return {
        headers,
        body: {
          type: 'wayfinder.escalation', escalationId: e.eventId, ts: e.ts, tenantId: e.tenantId, agentId: e.agentId, taskId: e.taskId, runId: e.runId,
          reason: e.reason, loopStartSeq: e.loopStartSeq, lastVerifiedMilestoneId: e.lastVerifiedMilestoneId, correctionsTried: tried, deviations,
        },
      };
    case 'slack': {
      const lines = [
        `*${headline(e)}*`,
        `Loop started at step ${e.loopStartSeq ?? 'unknown'}; last verified milestone: ${e.lastVerifiedMilestoneId ?? 'none'}.`,
        `Tried: ${tried.join(' → ') || 'nothing'}. Deviations: ${deviations.map((d) => d.detector).join(', ') || 'none'}.`,
        `Escalation ${e.eventId}`,
      ];
      return { headers, body: { text: headline(e), blocks: [{ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } }] } };
    }
    case 'pagerduty':
      return {
        headers,
        body: {
          routing_key: options.routingKey ?? '',
          event_action: 'trigger',
          dedup_key: e.eventId,
          payload: {
            summary: headline(e).slice(0, 1024),
            source: `wayfinder/${e.tenantId}/${e.agentId}`,
            severity: 'critical',
            timestamp: e.ts,
            component: e.taskId,
            group: e.tenantId,
            class: 'agent-frozen',
            custom_details: { loopStartSeq: e.loopStartSeq, lastVerifiedMilestoneId: e.lastVerifiedMilestoneId, correctionsTried: tried, deviations },
          },
        },
      };
  }
}
