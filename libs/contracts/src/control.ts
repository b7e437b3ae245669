/**
 * AgentControl `wayfinder.control.v1`: an operator's instruction about one agent, published by the
 * gateway and consumed by the correction engine. `resume` unfreezes an agent after an escalation: its
 * next steps are navigated again, from the bottom of the ladder.
 */
import { z } from 'zod';
import { envelope, Id } from './common';

export const CONTROL_SCHEMA = 'wayfinder.control.v1' as const;

export const AgentControl = z.object({
  ...envelope(CONTROL_SCHEMA),
  agentId: Id,
  action: z.literal('resume'),
  reason: z.string().max(4096).optional(),
});
export type AgentControl = z.infer<typeof AgentControl>;
