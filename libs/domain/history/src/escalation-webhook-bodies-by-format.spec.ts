import type { Escalation } from '@wayfinder/contracts';
import { escalationWebhookRequest } from './escalation-webhook';

const escalation: Escalation = {
  schema: 'wayfinder.escalation.v1', eventId: 'esc-1', tenantId: 'acme', ts: '2026-03-01T10:00:00.000Z', agentId: 'bot', taskId: 'cleanup', runId: null,
  reason: 'Hard stop (constraint_violation): drop_database is a dangerous tool', lastVerifiedMilestoneId: null, loopStartSeq: 1,
  deviations: [{ schema: 'wayfinder.deviation.v1', eventId: 'd1', tenantId: 'acme', ts: '2026-03-01T10:00:00.000Z', agentId: 'bot', taskId: 'cleanup', runId: null, detector: 'constraint_violation', level: 'critical', count: 1, atSeq: 1, loopStartSeq: 1, evidence: {}, message: 'drop_database is a dangerous tool' }],
  correctionsTried: [],
};

describe('escalation webhook bodies: generic, Slack, PagerDuty', () => {
  it('keys every format by the escalation id and adds the secret header', () => {
    for (const format of ['generic', 'slack', 'pagerduty'] as const) {
      const request = escalationWebhookRequest(escalation, format, { secretHeader: { name: 'X-Secret', value: 'v' } });
      expect(request.headers).toMatchObject({ 'idempotency-key': 'esc-1', 'x-secret': 'v', 'content-type': 'application/json' });
    }
  });

  it('shapes each body as its receiver expects', () => {
    expect(escalationWebhookRequest(escalation, 'generic').body).toMatchObject({ type: 'wayfinder.escalation', escalationId: 'esc-1', agentId: 'bot', deviations: [{ detector: 'constraint_violation' }] });
    const slack = escalationWebhookRequest(escalation, 'slack').body as { text: string; blocks: Array<{ type: string; text: { type: string; text: string } }> };
    expect(slack.text).toContain('froze agent bot');
    expect(slack.blocks[0].text.type).toBe('mrkdwn');
    expect(slack.blocks[0].text.text).toContain('Loop started at step 1');
    expect(escalationWebhookRequest(escalation, 'pagerduty', { routingKey: 'rk' }).body).toMatchObject({
      routing_key: 'rk', event_action: 'trigger', dedup_key: 'esc-1', payload: { severity: 'critical', source: 'wayfinder/acme/bot', component: 'cleanup', group: 'acme' },
    });
  });
});
