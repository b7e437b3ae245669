/** Builds step events for the detection specs: one agent, one run, increasing seq. */
import type { JsonValue, Position, PolicyOverlay, StepEvent } from '@wayfinder/contracts';
import { DetectionEngine } from '../detection.engine';
import { resolvePolicy } from '../policy/resolve';
import type { DetectionContext } from '../types';

export function steps(options: { runId?: string; agentId?: string; tenantId?: string; startMs?: number; stepMs?: number } = {}) {
  let seq = 0;
  let call = 0;
  const start = options.startMs ?? Date.parse('2026-01-01T00:00:00.000Z');
  const base = () => {
    const s = seq++;
    return {
      schema: 'wayfinder.step.v1' as const,
      eventId: `${options.runId ?? 'r1'}-e${s}`,
      tenantId: options.tenantId ?? 't1',
      agentId: options.agentId ?? 'a1',
      taskId: 'task1',
      runId: options.runId ?? 'r1',
      seq: s,
      ts: new Date(start + s * (options.stepMs ?? 1000)).toISOString(),
    };
  };
  return {
    act(tool: string, args: Record<string, JsonValue> = {}): StepEvent {
      call++;
      return { ...base(), kind: 'action', action: { tool, args, callId: `c${call}` } };
    },
    ok(tool: string, content: JsonValue): StepEvent {
      return { ...base(), kind: 'observation', observation: { tool, ok: true, content, callId: `c${call}` } };
    },
    fail(tool: string, error: string): StepEvent {
      return { ...base(), kind: 'observation', observation: { tool, ok: false, error, callId: `c${call}` } };
    },
    say(text: string): StepEvent {
      return { ...base(), kind: 'message', message: { role: 'assistant', text } };
    },
    milestone(id: string, status: 'started' | 'done' | 'failed' = 'done'): StepEvent {
      return { ...base(), kind: 'milestone', milestone: { id, status } };
    },
    compaction(reason = 'context window full'): StepEvent {
      return { ...base(), kind: 'compaction', compaction: { reason } };
    },
    withUsage(step: StepEvent, usage: NonNullable<StepEvent['usage']>): StepEvent {
      return { ...step, usage };
    },
  };
}

export function engineFor(overlay: PolicyOverlay = {}, extra: Partial<DetectionContext> = {}): DetectionEngine {
  const policy = resolvePolicy(overlay);
  return new DetectionEngine({ policyFor: () => ({ policy, ...extra }) });
}

export function runAll(engine: DetectionEngine, events: StepEvent[], position?: Position) {
  return events.flatMap((e) => engine.onStep(e, position));
}
