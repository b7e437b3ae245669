/**
 * AnchorChange `wayfinder.anchor-change.v1` (dynamic anchors): an anchor of a task's map replaced or
 * retargeted on purpose. `proposed` comes from a `feedback` or `plan` step (state-localizer); `confirmed`
 * or `rejected` comes from a person through the gateway (`POST /v1/agents/{agentId}/anchors/{anchorId}`,
 * body `AnchorDecisionRequest`). The task-parser applies a confirmed change, or a proposed one when the
 * policy's `anchors.autoAccept` is on, as the map's next version. Keyed `tenantId:taskId`.
 */
import { z } from 'zod';
import { envelope, Id } from './common';
import { AnchorPatch } from './task';

export const ANCHOR_CHANGE_SCHEMA = 'wayfinder.anchor-change.v1' as const;

export const AnchorChange = z.object({
  ...envelope(ANCHOR_CHANGE_SCHEMA),
  taskId: Id,
  /** The agent whose step proposed it, or whose route the decision was made on. */
  agentId: Id.optional(),
  anchorId: Id,
  /** Stable id of the proposal; a decision names the proposal it answers. */
  proposalId: Id,
  kind: z.enum(['proposed', 'confirmed', 'rejected']),
  to: AnchorPatch,
  reason: z.string().min(1).max(2048),
  source: z.enum(['feedback', 'plan', 'api', 'policy']),
  /** The seq of the step that proposed it. */
  atSeq: z.number().int().nonnegative().optional(),
});
export type AnchorChange = z.infer<typeof AnchorChange>;

/** Body of `POST /v1/agents/{agentId}/anchors/{anchorId}`; the gateway publishes it as an AnchorChange. */
export const AnchorDecisionRequest = z
  .object({
    taskId: Id,
    decision: z.enum(['accept', 'reject']),
    /** The proposal answered; without one, `to` must say what the anchor becomes. */
    proposalId: Id.optional(),
    to: AnchorPatch.optional(),
    reason: z.string().min(1).max(2048).optional(),
  })
  .strict()
  .refine((r) => r.decision === 'reject' || r.proposalId !== undefined || r.to !== undefined, { message: 'an accept needs proposalId or to', path: ['to'] });
export type AnchorDecisionRequest = z.infer<typeof AnchorDecisionRequest>;
