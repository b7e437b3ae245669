/**
 * `align_check_failed`: an assistant message holding an [ALIGN-CHECK] block (align-check-block.ts) whose
 * answers say no — not serving the goal, the last steps did not advance the sub-task, or a hard constraint
 * was violated. A warning the ladder treats as a rollback trigger (moderate); its message quotes the
 * failing answer, which the rollback's reason carries into the next STATE.
 */
import type { Position, StepEvent } from '@wayfinder/contracts';
import type { DetectionContext, DeviationDraft, StepDetector } from '../types';
import { alignCheckBlock, readAlignCheck } from './align-check-block';

export class AlignCheckDetector implements StepDetector {
  readonly name = 'align_check_failed' as const;
  /** Failing self-checks per tenant/agent (the deviation's count); bounded by the agents on this instance. */
  private readonly counts = new Map<string, number>();

  onStep(step: StepEvent, _position: Position | undefined, ctx: DetectionContext): DeviationDraft[] {
    if (!ctx.policy.alignCheck.enabled || step.kind !== 'message' || step.message.role !== 'assistant') return [];
    // Steps reach the engine parsed, but replay and the guard may hand it anything: a text that is not a string has no block.
    if (typeof step.message.text !== 'string') return [];
    const block = alignCheckBlock(step.message.text);
    if (block === undefined) return [];
    const failing = readAlignCheck(block).filter((a) => a.failing);
    if (failing.length === 0) return [];
    const key = `${step.tenantId}\u0000${step.agentId}`;
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    const answer = failing.map((a) => a.line).join(' | ');
    return [
      {
        detector: 'align_check_failed',
        level: 'warning',
        count,
        atSeq: step.seq,
        loopStartSeq: step.seq,
        evidence: { answer, questions: failing.map((a) => a.question) },
        message: `The agent's ALIGN-CHECK says no: "${answer}"`,
      },
    ];
  }

  exportState(tenantId: string, agentId: string): unknown {
    return this.counts.get(`${tenantId}\u0000${agentId}`);
  }

  importState(tenantId: string, agentId: string, state: unknown): void {
    if (typeof state === 'number' && Number.isFinite(state)) this.counts.set(`${tenantId}\u0000${agentId}`, state);
  }

  forget(tenantId: string, agentId: string): void {
    this.counts.delete(`${tenantId}\u0000${agentId}`);
  }
}
