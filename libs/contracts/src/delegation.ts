/**
 * DelegationSignal `wayfinder.delegation.v1` (cross_agent_cycle, DESIGN §5.3): what a per-tenant cycle
 * detector needs of an agent's steps. Agents of one tenant live on different partitions and instances,
 * so per-agent workers publish these, keyed by `tenantId`: one tenant's signals reach one consumer, which
 * keeps the tenant's bounded delegation graph. `delegation`: `agentId` handed work to `to` (a step with
 * `attributes.delegateTo`, or a sub-agent spawn); `progress`: `agentId` reached a milestone.
 */
import { z } from 'zod';
import { envelope, Id } from './common';

export const DELEGATION_SCHEMA = 'wayfinder.delegation.v1' as const;

export const DelegationSignal = z.object({
  ...envelope(DELEGATION_SCHEMA),
  kind: z.enum(['delegation', 'progress']),
  agentId: Id,
  taskId: Id,
  runId: Id.nullable(),
  /** The step the signal comes from. */
  seq: z.number().int().nonnegative(),
  stepEventId: Id,
  /** The delegate (kind `delegation`). */
  to: Id.optional(),
  /** What was delegated, normalized and cut (kind `delegation`). */
  subtask: z.string().max(256).optional(),
});
export type DelegationSignal = z.infer<typeof DelegationSignal>;
