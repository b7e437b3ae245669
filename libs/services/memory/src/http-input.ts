/**
 * Validation of the memory HTTP API's input (zod): a bad request gets 400 with a message naming every
 * bad field (`budget: Expected number, received nan`) and the field paths in `fields`.
 */
import { BadRequestException } from '@nestjs/common';
import { formatZodError, Id } from '@wayfinder/contracts';
import { MEMORY_KINDS } from '@wayfinder/memory';
import { z } from 'zod';

const MEMORY_SOURCES = ['feedback', 'milestone_evidence', 'conclusion', 'message', 'thought', 'observation', 'variable'] as const;
const MemoryKind = z.enum(MEMORY_KINDS);
const MemoryText = z.string().trim().min(1, 'must not be empty').max(8192, 'must be at most 8192 characters');

export const TenantParams = z.object({ tenantId: Id });
export const AgentParams = z.object({ tenantId: Id, agentId: Id, taskId: Id });

export const ContextQuery = z.object({
  budget: z.coerce.number().int().min(64).max(2_000_000).default(4_000),
});

export const WriteMemoryBody = z
  .object({
    text: MemoryText,
    source: z.enum(MEMORY_SOURCES),
    verified: z.boolean().optional(),
    taskId: Id,
    agentId: Id.optional(),
    milestoneId: Id.optional(),
  })
  .strict();
export type WriteMemoryBody = z.infer<typeof WriteMemoryBody>;

export const QueryMemoriesBody = z
  .object({
    text: MemoryText,
    limit: z.number().int().min(1).max(100).default(5),
    kind: z.union([MemoryKind, z.array(MemoryKind).min(1)]).optional(),
    taskId: Id.optional(),
    milestoneId: Id.optional(),
    minScore: z.number().min(-1).max(1).optional(),
  })
  .strict();
export type QueryMemoriesBody = z.infer<typeof QueryMemoriesBody>;

/** Parses `input` or throws the 400 of the API. */
export function parseInput<S extends z.ZodTypeAny>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields = [...new Set(result.error.issues.map((i) => (i.path.length > 0 ? i.path.join('.') : unrecognizedKeys(i))))];
  throw new BadRequestException({ statusCode: 400, error: 'Bad Request', message: formatZodError(result.error), fields });
}

function unrecognizedKeys(issue: z.ZodIssue): string {
  return issue.code === 'unrecognized_keys' ? issue.keys.join(',') : '(root)';
}
