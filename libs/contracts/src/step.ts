/** StepEvent `wayfinder.step.v1`: one thing an agent did or saw (DESIGN §4). */
import { z } from 'zod';
import { envelope, Id, JsonValue } from './common';
import { AnchorPatch } from './task';
import { jsonByteSize, MAX_ARGS_BYTES, MAX_ATTRIBUTES_BYTES, MAX_TEXT_BYTES, truncateText } from './limits';

export const STEP_SCHEMA = 'wayfinder.step.v1' as const;

/** Text fields: long texts are truncated with a marker rather than rejected. */
const Text = z.string().transform((s) => truncateText(s, MAX_TEXT_BYTES));

const Args = z
  .record(JsonValue)
  .refine((args) => jsonByteSize(args) <= MAX_ARGS_BYTES, `args must be at most ${MAX_ARGS_BYTES} bytes of JSON`);

/** Observation content may be a string or any JSON value; either way it is capped at 64 KiB. */
const Content = JsonValue.transform((value) => {
  if (typeof value === 'string') return truncateText(value, MAX_TEXT_BYTES);
  return jsonByteSize(value) <= MAX_TEXT_BYTES ? value : truncateText(JSON.stringify(value), MAX_TEXT_BYTES);
});

export const ActionBody = z.object({
  tool: Id,
  args: Args.default({}),
  callId: Id.optional(),
});

export const ObservationBody = z.object({
  callId: Id.optional(),
  tool: Id,
  ok: z.boolean(),
  content: Content.optional(),
  error: Text.optional(),
  errorCode: z.string().max(128).optional(),
  status: z.union([z.string().max(128), z.number()]).optional(),
});

export const MessageBody = z.object({
  role: z.enum(['assistant', 'user', 'system', 'tool']),
  text: Text,
  type: z.enum(['thought', 'output']).optional(),
});

export const MilestoneBody = z.object({
  id: Id,
  status: z.enum(['started', 'done', 'failed']),
  evidence: Text.optional(),
});

export const FeedbackBody = z.object({ text: Text });
export const CompactionBody = z.object({ reason: Text });
export const PlanBody = z.object({
  subgoals: z
    .array(z.object({ id: Id, text: Text, anchors: z.array(z.string().max(256)).optional() }))
    .max(64),
});

export const Usage = z.object({
  inputTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative().optional(),
  costUsd: z.number().nonnegative().optional(),
  latencyMs: z.number().nonnegative().optional(),
});

/**
 * Small, free-form attributes; the keys below have a meaning to Wayfinder. Any other key is kept as is.
 */
const StepAttributesSchema = z
  .object({
    delegateTo: Id.optional().describe(
      'The agent of the same tenant this step hands work to (a message or action delegating, or a sub-agent spawn). ' +
        'Delegations are tracked per tenant: a cycle of them with no milestone progress, or the same sub-task delegated again and again, is cross_agent_cycle.',
    ),
    subtask: z.string().max(1024).optional().describe('What is delegated (with delegateTo): the same sub-task delegated to the same agent again and again is a cycle.'),
    afterUser: z
      .boolean()
      .optional()
      .describe(
        'True when this step directly follows a user message that was not sent as a step (a proxy or a converter that leaves the user turns out, as the LLM proxy does). ' +
          'The agent is answering someone: a run of its messages with no action (monologue) starts over here, as after a user message step.',
      ),
    anchorChange: AnchorPatch.extend({ anchorId: Id, reason: z.string().max(2048).optional() })
      .optional()
      .describe('On a feedback or plan step: proposes replacing or retargeting an anchor of the map (dynamic anchors).'),
  })
  .catchall(JsonValue)
  .refine((a) => jsonByteSize(a) <= MAX_ATTRIBUTES_BYTES, `attributes must be at most ${MAX_ATTRIBUTES_BYTES} bytes`);
/** The documented keys, typed; any other key is a JSON value (zod's inference drops the catch-all's index signature). */
export type StepAttributes = z.infer<typeof StepAttributesSchema> & { [key: string]: JsonValue | undefined };
export const StepAttributes = StepAttributesSchema as unknown as z.ZodType<StepAttributes, z.ZodTypeDef, z.input<typeof StepAttributesSchema> & { [key: string]: JsonValue | undefined }>;

const stepBase = {
  ...envelope(STEP_SCHEMA),
  agentId: Id,
  taskId: Id,
  // null and absent both mean "no run": traces converted from other formats carry an explicit null.
  runId: Id.nullable().optional(),
  seq: z.number().int().nonnegative(),
  usage: Usage.optional(),
  attributes: StepAttributes.optional(),
};

export const StepEvent = z.discriminatedUnion('kind', [
  z.object({ ...stepBase, kind: z.literal('action'), action: ActionBody }),
  z.object({ ...stepBase, kind: z.literal('observation'), observation: ObservationBody }),
  z.object({ ...stepBase, kind: z.literal('message'), message: MessageBody }),
  z.object({ ...stepBase, kind: z.literal('milestone'), milestone: MilestoneBody }),
  z.object({ ...stepBase, kind: z.literal('feedback'), feedback: FeedbackBody }),
  z.object({ ...stepBase, kind: z.literal('compaction'), compaction: CompactionBody }),
  z.object({ ...stepBase, kind: z.literal('plan'), plan: PlanBody }),
]);

export type StepEvent = z.infer<typeof StepEvent>;
export type StepKind = StepEvent['kind'];
export type ActionStep = Extract<StepEvent, { kind: 'action' }>;
export type ObservationStep = Extract<StepEvent, { kind: 'observation' }>;
export type MessageStep = Extract<StepEvent, { kind: 'message' }>;
export type MilestoneStep = Extract<StepEvent, { kind: 'milestone' }>;
export type FeedbackStep = Extract<StepEvent, { kind: 'feedback' }>;
export type CompactionStep = Extract<StepEvent, { kind: 'compaction' }>;
export type PlanStep = Extract<StepEvent, { kind: 'plan' }>;
export const STEP_KINDS = ['action', 'observation', 'message', 'milestone', 'feedback', 'compaction', 'plan'] as const;
