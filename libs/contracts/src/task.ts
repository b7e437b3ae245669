/** TaskSpec `wayfinder.task.v1` and CognitiveMap `wayfinder.map.v1` (DESIGN §4, §5.1). */
import { z } from 'zod';
import { envelope, Id } from './common';
import { MAX_TEXT_BYTES, truncateText } from './limits';

export const TASK_SCHEMA = 'wayfinder.task.v1' as const;
export const MAP_SCHEMA = 'wayfinder.map.v1' as const;
export const MAX_MILESTONES = 7;

const Text = z.string().transform((s) => truncateText(s, MAX_TEXT_BYTES));

/** Declarative validators: small and cheap on purpose (a complicated validator is a new fault source). */
export type Validator =
  | { type: 'marker'; milestoneId?: string }
  | { type: 'regex'; pattern: string; flags?: string; on?: 'any' | 'message' | 'observation' | 'action' }
  | { type: 'jsonField'; path: string; equals?: string | number | boolean; exists?: boolean }
  | { type: 'toolSucceeded'; tool: string }
  | { type: 'anchorCount'; anchorId: string; atLeast?: number }
  | { type: 'all'; of: Validator[] }
  | { type: 'any'; of: Validator[] };

export const Validator: z.ZodType<Validator> = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('marker'), milestoneId: Id.optional() }),
    z.object({
      type: z.literal('regex'),
      pattern: z.string().min(1).max(1024),
      flags: z.string().regex(/^[imsu]*$/, 'flags may only use i, m, s, u').optional(),
      on: z.enum(['any', 'message', 'observation', 'action']).optional(),
    }),
    z.object({
      type: z.literal('jsonField'),
      path: z.string().min(1).max(256),
      equals: z.union([z.string(), z.number(), z.boolean()]).optional(),
      exists: z.boolean().optional(),
    }),
    z.object({ type: z.literal('toolSucceeded'), tool: Id }),
    z.object({ type: z.literal('anchorCount'), anchorId: Id, atLeast: z.number().int().positive().optional() }),
    z.object({ type: z.literal('all'), of: z.array(Validator).min(1).max(16) }),
    z.object({ type: z.literal('any'), of: z.array(Validator).min(1).max(16) }),
  ]),
) as z.ZodType<Validator>;

export const Comparator = z.enum(['atLeast', 'atMost', 'exactly']);
export type Comparator = z.infer<typeof Comparator>;

export const Anchor = z.object({
  id: Id,
  text: z.string().max(1024),
  target: z.number().nonnegative(),
  unit: z.string().max(64),
  comparator: Comparator.default('atLeast'),
  hard: z.boolean().default(true),
});
export type Anchor = z.infer<typeof Anchor>;

/** What an anchor change sets: any of text, target, unit, comparator (the anchor keeps its id). */
export const AnchorPatch = z.object({
  text: z.string().min(1).max(1024).optional(),
  target: z.number().nonnegative().optional(),
  unit: z.string().min(1).max(64).optional(),
  comparator: Comparator.optional(),
});
export type AnchorPatch = z.infer<typeof AnchorPatch>;

/** An anchor change the map applied (dynamic anchors): shown on the goal board with its reason. */
export const AppliedAnchorChange = z.object({
  proposalId: Id,
  anchorId: Id,
  from: Anchor,
  to: Anchor,
  reason: z.string().max(2048),
  acceptedBy: z.enum(['policy', 'user']),
  /** The map version that applied it. */
  version: z.number().int().positive(),
});
export type AppliedAnchorChange = z.infer<typeof AppliedAnchorChange>;

export const TaskMilestone = z.object({
  id: Id,
  description: z.string().min(1).max(4096),
  dependsOn: z.array(Id).default([]),
  validator: Validator.optional(),
});

export const TaskSpec = z.object({
  ...envelope(TASK_SCHEMA),
  taskId: Id,
  goal: Text.pipe(z.string().min(1, 'must not be empty')),
  milestones: z.array(TaskMilestone).max(64).optional(),
  anchors: z.array(Anchor).max(32).optional(),
  constraints: z.array(z.string().min(1).max(2048)).max(64).optional(),
  maxSteps: z.number().int().positive().optional(),
  expectedStepMs: z.number().int().positive().optional(),
  agentIds: z.array(Id).max(10_000).optional(),
});
export type TaskSpec = z.infer<typeof TaskSpec>;

export const Milestone = z.object({
  id: Id,
  description: z.string().min(1).max(4096),
  dependsOn: z.array(Id),
  validator: Validator,
});
export type Milestone = z.infer<typeof Milestone>;

export const Constraint = z.object({
  id: Id,
  text: z.string().min(1).max(2048),
  hard: z.boolean(),
  source: z.enum(['task', 'goal', 'feedback']),
});
export type Constraint = z.infer<typeof Constraint>;

export const CognitiveMap = z.object({
  ...envelope(MAP_SCHEMA),
  taskId: Id,
  version: z.number().int().positive(),
  goal: z.string(),
  targetState: z.string(),
  milestones: z.array(Milestone).min(1).max(MAX_MILESTONES),
  anchors: z.array(Anchor),
  constraints: z.array(Constraint),
  maxSteps: z.number().int().positive().optional(),
  expectedStepMs: z.number().int().positive().optional(),
  /** Anchor changes accepted so far, oldest first (absent until the first one). */
  anchorChanges: z.array(AppliedAnchorChange).max(32).optional(),
});
export type CognitiveMap = z.infer<typeof CognitiveMap>;
