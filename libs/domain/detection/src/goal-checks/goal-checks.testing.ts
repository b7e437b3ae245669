/** Builders for the goal-check specs: a task's map, an engine with the goal checks, and steps. Test-only. */
import type { CognitiveMap, JsonValue, PolicyOverlay, StepEvent, TaskSpec } from '@wayfinder/contracts';
import { parseTask } from '@wayfinder/cognitive-map';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { DetectionEngine } from '../detection.engine';
import { resolvePolicy } from '../policy/resolve';
import { goalCheckDetectors } from './index';

export function mapOf(goal: string, extra: Partial<TaskSpec> = {}): CognitiveMap {
  const parsed = parseTask({ schema: 'wayfinder.task.v1', eventId: 'task-e1', tenantId: 't1', ts: '2026-01-01T00:00:00.000Z', taskId: 'task1', goal, ...extra });
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/** The engine with the goal checks; the dangerous-tool list is emptied so only the charter's rules speak. */
export function goalEngine(map: CognitiveMap | undefined, overlay: PolicyOverlay = {}): DetectionEngine {
  const policy = resolvePolicy({ ...overlay, constraints: { dangerousTools: [], ...overlay.constraints } });
  const embedder = new HashingEmbedder();
  return new DetectionEngine({ embedder, policyFor: () => ({ policy, map }), extraDetectors: goalCheckDetectors(embedder) });
}

export function agentSteps(agentId = 'a1', runId = 'r1') {
  let seq = 0;
  const base = () => {
    const s = seq++;
    return { schema: 'wayfinder.step.v1' as const, eventId: `${agentId}-${runId}-${s}`, tenantId: 't1', agentId, taskId: 'task1', runId, seq: s, ts: new Date(Date.parse('2026-01-01T00:00:00.000Z') + s * 1000).toISOString() };
  };
  return {
    act: (tool: string, args: Record<string, JsonValue> = {}): StepEvent => ({ ...base(), kind: 'action', action: { tool, args } }),
    /** A tool's outcome: content on success, the error on failure. */
    result: (tool: string, ok: boolean, text: string): StepEvent => ({ ...base(), kind: 'observation', observation: { tool, ok, ...(ok ? { content: text } : { error: text }) } }),
    output: (text: string): StepEvent => ({ ...base(), kind: 'message', message: { role: 'assistant', text, type: 'output' } }),
    say: (text: string): StepEvent => ({ ...base(), kind: 'message', message: { role: 'assistant', text } }),
    feedback: (text: string): StepEvent => ({ ...base(), kind: 'feedback', feedback: { text } }),
    milestone: (id: string, status: 'started' | 'done' | 'failed', evidence?: string): StepEvent => ({ ...base(), kind: 'milestone', milestone: { id, status, ...(evidence !== undefined && { evidence }) } }),
    plan: (subgoals: Array<{ id: string; text: string; anchors?: string[] }>): StepEvent => ({ ...base(), kind: 'plan', plan: { subgoals } }),
  };
}

export function run(engine: DetectionEngine, steps: StepEvent[]) {
  return steps.flatMap((s) => engine.onStep(s));
}
