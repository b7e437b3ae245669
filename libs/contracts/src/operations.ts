/**
 * Operators' events (DESIGN §13): `wayfinder.suppression.v1` carries the patterns an operator marked as
 * false positives for one agent — the agent's whole active set, so the compacted topic keeps exactly what
 * applies; the detector worker drops matching deviations until each pattern's `until`. Per-tenant
 * operations settings (webhook, shadow mode, suppression time) are optional fields of the TenantPolicy.
 */
import { z } from 'zod';
import { envelope, Id } from './common';
import { DetectorName } from './navigation';

export const SUPPRESSION_SCHEMA = 'wayfinder.suppression.v1' as const;

export const SuppressedPattern = z.object({
  detector: DetectorName,
  tool: z.string().max(256).nullable(),
  argsHash: z.string().max(64).nullable(),
  /** ISO-8601: suppressed until then. */
  until: z.string().datetime({ offset: true }),
  /** The deviation the operator marked. */
  deviationId: Id,
});
export type SuppressedPattern = z.infer<typeof SuppressedPattern>;

export const Suppression = z.object({
  ...envelope(SUPPRESSION_SCHEMA),
  agentId: Id,
  patterns: z.array(SuppressedPattern).max(64),
});
export type Suppression = z.infer<typeof Suppression>;

export const WEBHOOK_FORMATS = ['generic', 'slack', 'pagerduty'] as const;

/** Where a tenant's escalations are posted. */
export const EscalationWebhook = z
  .object({
    url: z.string().url().refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL'),
    format: z.enum(WEBHOOK_FORMATS).default('generic'),
    /** A header sent with every post (e.g. a shared secret the receiver checks). */
    secretHeader: z.object({ name: z.string().min(1).max(128).regex(/^[A-Za-z0-9-]+$/, 'must be a header name'), value: z.string().min(1).max(1024) }).strict().optional(),
    /** PagerDuty Events v2 routing key (format pagerduty). */
    routingKey: z.string().min(1).max(128).optional(),
  })
  .strict();
export type EscalationWebhook = z.infer<typeof EscalationWebhook>;
