/**
 * HTTP API of long-term memory, always under the tenant of the path:
 * `POST /v1/tenants/:tenantId/memories` — a candidate memory; the write rules decide (201 and the decision
 *   when written, 200 and the decision with its reasons when the rules keep it out);
 * `POST /v1/tenants/:tenantId/memories/query` — the nearest memories of this tenant to a text.
 */
import { Body, Controller, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import type { Embedder } from '@wayfinder/embeddings';
import type { MemoryKind, MemoryPayload, VectorStore, WriteDecision } from '@wayfinder/memory';
import { parseInput, QueryMemoriesBody, TenantParams, WriteMemoryBody } from './http-input';
import { MemoryRecorder } from './memory-recorder';
import { MEMORY_EMBEDDER, VECTOR_STORE } from './tokens';

/** The bit of the response object the write route needs (Express underneath). */
interface StatusResponse {
  status(code: number): unknown;
}

export interface FoundMemory extends MemoryPayload {
  id: string;
  score: number;
}

@Controller('v1/tenants/:tenantId/memories')
export class MemoriesController {
  constructor(
    private readonly recorder: MemoryRecorder,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    @Inject(MEMORY_EMBEDDER) private readonly embedder: Embedder,
  ) {}

  @Post()
  async write(@Param() params: unknown, @Body() body: unknown, @Res({ passthrough: true }) response: StatusResponse): Promise<WriteDecision & { id?: string }> {
    const { tenantId } = parseInput(TenantParams, params);
    const input = parseInput(WriteMemoryBody, body);
    const decision = await this.recorder.longTerm.remember({
      tenantId,
      taskId: input.taskId,
      ...(input.agentId !== undefined && { agentId: input.agentId }),
      ...(input.milestoneId !== undefined && { milestoneId: input.milestoneId }),
      candidate: { text: input.text, source: input.source, ...(input.verified !== undefined && { verified: input.verified }) },
      at: new Date().toISOString(),
    });
    response.status(decision.write ? 201 : 200);
    return decision;
  }

  @Post('query')
  @HttpCode(200)
  async query(@Param() params: unknown, @Body() body: unknown): Promise<{ memories: FoundMemory[] }> {
    const { tenantId } = parseInput(TenantParams, params);
    const input = parseInput(QueryMemoriesBody, body);
    const hits = await this.store.query({
      tenantId,
      vector: (await this.embedder.embed([input.text]))[0],
      limit: input.limit,
      ...(input.minScore !== undefined && { minScore: input.minScore }),
      filter: {
        ...(input.kind !== undefined && { kind: input.kind as MemoryKind | MemoryKind[] }),
        ...(input.taskId !== undefined && { taskId: input.taskId }),
        ...(input.milestoneId !== undefined && { milestoneId: input.milestoneId }),
      },
    });
    return { memories: hits.map((h) => ({ id: h.id, score: h.score, ...h.payload })) };
  }
}
