/**
 * Goal persistence of every agent of a simulated fleet run through the pipeline: one GoalPersistence per
 * agent on its task's map, fed each round with the agent's step, its localization, the deviations raised
 * on it and the corrections delivered after it. Self-heal is judged here from the trajectory (progress
 * within the policy's self-heal window), since what reached the agent is what matters in an A/B arm.
 */
import type { CognitiveMap, Correction, Deviation, TaskSpec } from '@wayfinder/contracts';
import { parseTask } from '@wayfinder/cognitive-map';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { GoalPersistence, type GoalPersistenceReport } from '@wayfinder/evaluation';
import type { ObservedRound } from './fleet-pipeline-run';

export interface AgentPersistence {
  readonly report: GoalPersistenceReport;
  readonly tokens: number;
}

export class FleetPersistence {
  private readonly maps = new Map<string, CognitiveMap>();
  private readonly runs = new Map<string, { tracker: GoalPersistence; tokens: number }>();
  private readonly embedder = new HashingEmbedder();

  constructor(tasks: readonly TaskSpec[], private readonly selfHealWindow: number) {
    for (const task of tasks) {
      const parsed = parseTask(task);
      if (!parsed.ok) throw new Error(`task ${task.taskId}: ${parsed.error.message}`);
      this.maps.set(`${task.tenantId}\u0000${task.taskId}`, parsed.value);
    }
  }

  observe(round: ObservedRound): void {
    const positionOf = new Map(round.localized.map((l) => [l.step.eventId, l.position]));
    const deviations = group(round.deviations);
    const delivered = group(round.delivered);
    for (const step of round.steps) {
      const key = `${step.tenantId}\u0000${step.agentId}`;
      let run = this.runs.get(key);
      if (!run) {
        const map = this.maps.get(`${step.tenantId}\u0000${step.taskId}`);
        if (!map) continue;
        run = { tracker: new GoalPersistence(map, { embedder: this.embedder, selfHealWindow: this.selfHealWindow }), tokens: 0 };
        this.runs.set(key, run);
      }
      run.tokens += (step.usage?.inputTokens ?? 0) + (step.usage?.outputTokens ?? 0);
      const position = positionOf.get(step.eventId);
      run.tracker.onStep(step, {
        deviations: deviations.get(key) ?? [],
        corrections: delivered.get(key) ?? [],
        milestoneId: position?.milestoneId ?? null,
        ...(position && position.method !== 'unknown' ? { progress: position.progress } : {}),
      });
    }
  }

  of(tenantId: string, agentId: string): AgentPersistence | undefined {
    const run = this.runs.get(`${tenantId}\u0000${agentId}`);
    return run ? { report: run.tracker.report(), tokens: run.tokens } : undefined;
  }
}

function group<T extends Deviation | Correction>(items: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const key = `${item.tenantId}\u0000${item.agentId}`;
    const list = out.get(key);
    if (list) list.push(item);
    else out.set(key, [item]);
  }
  return out;
}
