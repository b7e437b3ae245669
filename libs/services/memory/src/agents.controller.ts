/**
 * HTTP read API of an agent's memory, always under its tenant:
 * `GET /v1/tenants/:tenantId/agents/:agentId/tasks/:taskId/context?budget=N` — the assembled context;
 * `GET /v1/tenants/:tenantId/agents/:agentId/tasks/:taskId/checkpoints` — the checkpoint stack, oldest first.
 * 404 when the tenant has nothing for that agent and task (another tenant's agent included).
 */
import { Controller, Get, NotFoundException, Param, Query } from '@nestjs/common';
import type { Checkpoint } from '@wayfinder/memory';
import { AgentContextReader, type AgentContext } from './agent-context';
import { AgentParams, ContextQuery, parseInput } from './http-input';

@Controller('v1/tenants/:tenantId/agents/:agentId/tasks/:taskId')
export class AgentsController {
  constructor(private readonly reader: AgentContextReader) {}

  @Get('context')
  async context(@Param() params: unknown, @Query() query: unknown): Promise<AgentContext> {
    const scope = parseInput(AgentParams, params);
    const { budget } = parseInput(ContextQuery, query);
    const context = await this.reader.context(scope, budget);
    if (!context) throw notFound(scope);
    return context;
  }

  @Get('checkpoints')
  async checkpoints(@Param() params: unknown): Promise<{ checkpoints: Checkpoint[] }> {
    const scope = parseInput(AgentParams, params);
    const checkpoints = await this.reader.checkpoints(scope);
    if (!checkpoints) throw notFound(scope);
    return { checkpoints };
  }
}

function notFound(scope: { tenantId: string; agentId: string; taskId: string }): NotFoundException {
  return new NotFoundException(`tenant ${scope.tenantId} has no memory of agent ${scope.agentId} on task ${scope.taskId}`);
}
