/**
 * The correction ladder of @wayfinder/correction as a Navigator stage: it resolves the policy per agent.
 * The engine keeps each agent's last verified milestone checkpoint (where a rollback goes) from the
 * positions it sees, in its durable per-agent state. The correction-engine service uses it too, fed from
 * wayfinder.localized.v1 and wayfinder.deviations.v1.
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
  constructor(
    private readonly engine: CorrectionEngine,
    private readonly policyOf: (subject: PolicySubject) => PolicySettings,
  ) {}

  onStep(step: StepEvent, position: Position | undefined, map: CognitiveMap | undefined): SelfHealOutcome[] {
    return this.engine.onStep(step, position, { policy: this.policyOf(step), map });
  }

  onDeviation(deviation: Deviation, map: CognitiveMap | undefined): CorrectionOutcome {
    return this.engine.onDeviation(deviation, { policy: this.policyOf(deviation), map });
  }

  resume(tenantId: string, agentId: string): boolean {
    return this.engine.resume(tenantId, agentId);
  }

  /** The ladder's per-agent state (rungs, limits used, freeze, checkpoint) is the engine's. */
  get state(): CorrectionEngine {
    return this.engine;
  }
}
