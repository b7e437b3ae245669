/**
 * Claude Code's tool hooks as HTTP hooks (DESIGN §12), the tenant from the bearer key like every route:
 * - `POST /v1/hooks/pre-tool-use` (PreToolUse): the call is published as an action, unless it is refused:
 *   a frozen agent's call, or a call that breaks a hard constraint of the task's map, is denied with the
 *   reason (`permissionDecision: "deny"`); otherwise no decision is made (the user's permission rules
 *   stay in charge) and pending guidance rides along as `additionalContext`, once;
 * - `POST /v1/hooks/post-tool-use` (PostToolUse, PostToolUseFailure): the result is published as the
 *   call's observation; pending guidance rides along as `additionalContext`; a frozen agent is told to
 *   stop (`decision: "block"` with the reason).
 * The agent is `X-Wayfinder-Agent` or the session id, the task `X-Wayfinder-Task` or the session id,
 * the run the session id. Bad input → 400 naming the field.
 */
import { Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { Id, StepEvent } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import { guidanceText, hardStopOf, hookStep, frozenMessage, postToolAnswer, preToolAnswer, readToolHook, type HookIdentity, type ToolHookEvent, type ToolHookInput } from '@wayfinder/ingest';
import { BUS, MAP_STORE, type MapStore } from '@wayfinder/service-core';
import type { ResolvedTenant, StepSeqs } from '@wayfinder/tenancy';
import { CurrentTenant } from '../../auth/tenant.guard';
import { AgentCorrections } from '../../agent-corrections';
import { ApiError, badRequest, zodProblem } from '../../http/api-error';
import { parseJson, readBody } from '../../http/request-body';
import { IngestLimiter } from '../../ingest-limiter';
import { STEP_SEQS } from '../../tokens';

const MAX_HOOK_BYTES = 1024 * 1024;
const PRE: readonly ToolHookEvent[] = ['PreToolUse'];
const POST: readonly ToolHookEvent[] = ['PostToolUse', 'PostToolUseFailure'];

@Controller('v1/hooks')
export class ToolHooksController {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(MAP_STORE) private readonly maps: MapStore,
    private readonly limiter: IngestLimiter,
    private readonly corrections: AgentCorrections,
    @Inject(STEP_SEQS) private readonly seqs: StepSeqs,
  ) {}

  @Post('pre-tool-use')
  @HttpCode(200)
  async preToolUse(@Req() req: IncomingMessage, @CurrentTenant() tenant: ResolvedTenant): Promise<Record<string, unknown>> {
    const input = await this.read(req, PRE);
    const identity = identityOf(req, tenant.tenantId, input);
    const [pending, map] = await Promise.all([this.corrections.pending(tenant.tenantId, identity.agentId), this.maps.get(tenant.tenantId, identity.taskId)]);
    if (pending.frozen) return preToolAnswer({ deny: frozenMessage(pending.frozen) });
    const hardStop = hardStopOf(map, input.toolName, input.toolInput);
    if (hardStop) return preToolAnswer({ deny: `Wayfinder refused this call: ${hardStop}` });
    await this.publish(input, identity);
    return preToolAnswer({ context: await this.guidance(pending) });
  }

  @Post('post-tool-use')
  @HttpCode(200)
  async postToolUse(@Req() req: IncomingMessage, @CurrentTenant() tenant: ResolvedTenant): Promise<Record<string, unknown>> {
    const input = await this.read(req, POST);
    const identity = identityOf(req, tenant.tenantId, input);
    await this.publish(input, identity);
    const pending = await this.corrections.pending(tenant.tenantId, identity.agentId);
    if (pending.frozen) return postToolAnswer(input.event, { block: frozenMessage(pending.frozen) });
    return postToolAnswer(input.event, { context: await this.guidance(pending) });
  }

  private async read(req: IncomingMessage, events: readonly ToolHookEvent[]): Promise<ToolHookInput> {
    const read = readToolHook(parseJson(await readBody(req, MAX_HOOK_BYTES)), events);
    if (!read.ok) throw badRequest(read.error, read.field);
    return read.value;
  }

  private async guidance(pending: Awaited<ReturnType<AgentCorrections['pending']>>): Promise<string | undefined> {
    if (!pending.guidance) return undefined;
    await this.corrections.applied(pending.guidance);
    return `Wayfinder: ${guidanceText(pending.guidance)}`;
  }

  private async publish(input: ToolHookInput, identity: HookIdentity): Promise<void> {
    const now = Date.now();
    const seq = await this.seqs.next(identity, input.toolUseId && `${input.event}:${input.toolUseId}`);
    if (seq === undefined) return; // the same hook delivered again
    const parsed = StepEvent.safeParse(hookStep(input, identity, seq, now));
    if (!parsed.success) {
      const problem = zodProblem(parsed.error);
      throw badRequest(`the hook does not make a valid step: ${problem.error}`, problem.field);
    }
    this.limiter.take(identity.tenantId, 1);
    try {
      await this.bus.publish('wayfinder.steps.v1', [parsed.data]);
    } catch (error) {
      throw new ApiError(503, { error: `the bus did not accept the step: ${(error as Error).message}` }, 1);
    }
  }
}

function identityOf(req: IncomingMessage, tenantId: string, input: ToolHookInput): HookIdentity {
  const header = (name: string, fallback: string): string => {
    const value = req.headers[name];
    const chosen = typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
    if (!Id.safeParse(chosen).success) throw badRequest(`${name} must be 1–128 characters`, name);
    return chosen;
  };
  return { tenantId, agentId: header('x-wayfinder-agent', input.sessionId), taskId: header('x-wayfinder-task', input.sessionId), runId: input.sessionId };
}
