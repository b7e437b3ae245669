/**
 * Steps that arrived before their task's map (DESIGN §3: never dropped), and the rule that decides which
 * steps wait (`routeStep`). They are held per agent, in arrival order, bounded: when an agent holds
 * `maxPerAgent` steps, or a step waited `timeoutMs`, the oldest are handed back to be localized as
 * `unknown` rather than kept forever. Pure: the state localizer keeps them durably (HeldStepStore) and
 * calls these.
 */
import { compositeKey, type StepEvent } from '@wayfinder/contracts';

/** What becomes of a step that reaches the localizer. */
export type StepRoute = 'duplicate' | 'localize' | 'unknown' | 'hold';

export interface StepRouteFacts {
  /** At or below the last step localized for its agent and run. */
  readonly duplicate: boolean;
  /** Its task's map is known. */
  readonly hasMap: boolean;
  /** Earlier steps of the same (tenant, task, agent) are held: this one waits behind them, in order. */
  readonly agentWaiting: boolean;
  /** Steps of its task already waited out the hold timeout: no map is coming. */
  readonly taskMapless: boolean;
}

/**
 * The hold-until-map rule: a duplicate is not localized twice; a step is localized when its map is known
 * and no earlier step of its agent waits; localized as unknown at once when its task already timed out
 * waiting; held otherwise (until the map comes or the timeout).
 */
export function routeStep(facts: StepRouteFacts): StepRoute {
  if (facts.duplicate) return 'duplicate';
  if (facts.agentWaiting) return 'hold';
  if (facts.hasMap) return 'localize';
  return facts.taskMapless ? 'unknown' : 'hold';
}

interface Held {
  step: StepEvent;
  since: number;
}

export interface PendingStepsOptions {
  maxPerAgent: number;
  timeoutMs: number;
}

export class PendingSteps {
  /** taskKey → agentKey → held steps, in arrival order. */
  private readonly byTask = new Map<string, Map<string, Held[]>>();
  private count = 0;

  constructor(private readonly options: PendingStepsOptions) {}

  get size(): number {
    return this.count;
  }

  hasAgent(step: StepEvent): boolean {
    return (this.byTask.get(taskKey(step))?.get(agentKey(step))?.length ?? 0) > 0;
  }

  /** Holds a step; returns the steps pushed out by the per-agent bound (to localize as unknown now). */
  hold(step: StepEvent, nowMs: number): StepEvent[] {
    const tKey = taskKey(step);
    let agents = this.byTask.get(tKey);
    if (!agents) this.byTask.set(tKey, (agents = new Map()));
    const aKey = agentKey(step);
    let queue = agents.get(aKey);
    if (!queue) agents.set(aKey, (queue = []));
    queue.push({ step, since: nowMs });
    this.count++;
    const overflow = queue.length - this.options.maxPerAgent;
    if (overflow <= 0) return [];
    this.count -= overflow;
    return queue.splice(0, overflow).map((h) => h.step);
  }

  /** Everything held for a task (its map arrived), in per-agent order. */
  release(tenantId: string, taskId: string): StepEvent[] {
    const agents = this.byTask.get(compositeKey(tenantId, taskId));
    if (!agents) return [];
    this.byTask.delete(compositeKey(tenantId, taskId));
    const steps: StepEvent[] = [];
    for (const queue of agents.values()) for (const held of queue) steps.push(held.step);
    this.count -= steps.length;
    return steps;
  }

  /**
   * Steps that waited too long. An agent's queue is released whole from its oldest expired step on, so
   * its steps keep their order when they are localized as unknown.
   */
  expired(nowMs: number): StepEvent[] {
    const out: StepEvent[] = [];
    for (const [tKey, agents] of this.byTask) {
      for (const [aKey, queue] of agents) {
        if (queue.length > 0 && nowMs - queue[0].since >= this.options.timeoutMs) {
          for (const held of queue) out.push(held.step);
          this.count -= queue.length;
          agents.delete(aKey);
        }
      }
      if (agents.size === 0) this.byTask.delete(tKey);
    }
    return out;
  }
}

function taskKey(step: StepEvent): string {
  return compositeKey(step.tenantId, step.taskId);
}

function agentKey(step: StepEvent): string {
  return step.agentId;
}
