/**
 * Long-term memory over the ports (DESIGN §5.5): `remember` applies the write rules, embeds what passes and
 * upserts it under the tenant; `recall` finds the memories relevant to the current milestone for context
 * assembly. The id of a memory is derived from its tenant-local content, so remembering the same thing
 * twice (a redelivered event) updates one point instead of adding a duplicate.
 */
import { FNV1A_OFFSET_BASIS, fnv1a32Hex } from '@wayfinder/contracts';
import type { Embedder } from '@wayfinder/embeddings';
import type { RelevantMemory } from './context-assembly';
import type { VectorStore } from './vector-store.port';
import { classifyMemoryWrite, type MemoryCandidate, type WriteDecision } from './write-rules';

export interface RememberInput {
  tenantId: string;
  taskId: string;
  agentId?: string;
  milestoneId?: string;
  candidate: MemoryCandidate;
  /** ISO-8601; recorded in the payload. */
  at?: string;
}

export interface RecallInput {
  tenantId: string;
  /** What the agent is working on now: the milestone description, the STATE's next action. */
  text: string;
  milestoneId: string | null;
  taskId?: string;
  limit?: number;
  minScore?: number;
}

/** Memories of another milestone are fetched too, then filtered: over-fetch so the limit can still be met. */
const OVERFETCH = 4;

export class LongTermMemory {
  constructor(
    private readonly store: VectorStore,
    private readonly embedder: Embedder,
  ) {}

  async remember(input: RememberInput): Promise<WriteDecision & { id?: string }> {
    const decision = classifyMemoryWrite(input.candidate);
    if (!decision.write || !decision.kind) return decision;
    const text = input.candidate.text.trim();
    const id = memoryId([input.taskId, decision.kind, input.milestoneId ?? '', text.replace(/\s+/g, ' ').toLowerCase()]);
    await this.store.upsert([
      {
        id,
        tenantId: input.tenantId,
        vector: (await this.embedder.embed([text]))[0],
        payload: {
          kind: decision.kind,
          text,
          taskId: input.taskId,
          ...(input.agentId !== undefined && { agentId: input.agentId }),
          ...(input.milestoneId !== undefined && { milestoneId: input.milestoneId }),
          ...(input.at !== undefined && { createdAt: input.at }),
        },
      },
    ]);
    return { ...decision, id };
  }

  /** Memories of the current milestone or of no milestone (task-wide), best first. */
  async recall(input: RecallInput): Promise<RelevantMemory[]> {
    const limit = input.limit ?? 5;
    const hits = await this.store.query({
      tenantId: input.tenantId,
      vector: (await this.embedder.embed([input.text]))[0],
      limit: limit * OVERFETCH,
      minScore: input.minScore,
      filter: input.taskId !== undefined ? { taskId: input.taskId } : undefined,
    });
    return hits
      .filter((h) => h.payload.milestoneId === undefined || h.payload.milestoneId === input.milestoneId)
      .slice(0, limit)
      .map((h) => ({
        id: h.id,
        kind: h.payload.kind,
        text: h.payload.text,
        score: h.score,
        ...(h.payload.milestoneId !== undefined && { milestoneId: h.payload.milestoneId }),
      }));
  }
}

/** FNV-1a twice (two bases) → 16 hex chars: a stable, tenant-local point id. */
export function memoryId(parts: readonly string[]): string {
  const text = parts.join('\u0000');
  return `mem-${fnv1a32Hex(text, FNV1A_OFFSET_BASIS)}${fnv1a32Hex(text, 0x050c5d1f)}`;
}
