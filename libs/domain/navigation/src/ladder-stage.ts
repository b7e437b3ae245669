/**
 * The correction ladder of @wayfinder/correction as a Navigator stage. It resolves the policy per agent
 * and, since in process there is no working memory, keeps each agent's last verified milestone
 * checkpoint (where a rollback goes) from the positions it sees. The correction-engine service uses it
 * too, fed from wayfinder.localized.v1 and wayfinder.deviations.v1.
 */
import type { CognitiveMap, Deviation, PolicySettings, Position, StepEvent } from '@wayfinder/contracts';
import type { CorrectionEngine, SelfHealOutcome } from '@wayfinder/correction';
import type { CorrectionOutcome, CorrectionStage } from './navigation-ports';

/** Whom a policy is resolved for: a step and the deviations raised on it both carry these. */
export interface PolicySubject {
  readonly tenantId: string;
  readonly taskId: string;
  readonly agentId: string;
}

export class LadderStage implements CorrectionStage {
  private readonly checkpoints = new Map<string, { id: string; milestoneId: string; seq: number; completed: number }>();

  constructor(
    private readonly engine: CorrectionEngine,
    private readonly policyOf: (subject: PolicySubject) => PolicySettings,
  ) {}

  onStep(step: StepEvent, position: Position | undefined, map: CognitiveMap | undefined): SelfHealOutcome[] {
    const key = `${step.tenantId}:${step.agentId}:${step.taskId}`;
    if (position && position.completed.length > (this.checkpoints.get(key)?.completed ?? 0)) {
      const milestoneId = position.completed[position.completed.length - 1];
      this.checkpoints.set(key, { id: `cp:${step.taskId}:${milestoneId}:${step.seq}`, milestoneId, seq: step.seq, completed: position.completed.length });
    }
    return this.engine.onStep(step, position, { policy: this.policyOf(step), map, lastCheckpoint: this.checkpoints.get(key) });
  }

  onDeviation(deviation: Deviation, map: CognitiveMap | undefined): CorrectionOutcome {
    const lastCheckpoint = this.checkpoints.get(`${deviation.tenantId}:${deviation.agentId}:${deviation.taskId}`);
    return this.engine.onDeviation(deviation, { policy: this.policyOf(deviation), map, lastCheckpoint });
  }
}
