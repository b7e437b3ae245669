/**
 * One simulated agent: works through its task's milestones one turn (one step event) at a time, falls
 * into its injected failure at a chosen point, and answers corrections the way its responsiveness says:
 * a correction at or above it breaks the failure (the agent changes course and finishes the milestone),
 * a weaker one is ignored, a freeze stops it for a human.
 */
import type { Correction, StepEvent } from '@wayfinder/contracts';
import { call, patternFor, type Pattern, type StepBody } from './failure-patterns';
import { CORRECTION_RANK, type AgentRecord, type AgentState, type FailureKind, type InjectedFailure, type ReceivedCorrection, type Responsiveness } from './fleet.types';
import type { Prng } from './prng';
import { words, type TaskTemplate } from './task-catalog';

export interface AgentSetup {
  tenantId: string;
  agentId: string;
  taskId: string;
  runId: string;
  template: TaskTemplate;
  subject: string;
  rng: Prng;
  startRound: number;
  failure?: { kind: FailureKind; respondsTo: Responsiveness; claimed: InjectedFailure['claimedDetectors'] };
}

export class SimulatedAgent {
  private state: AgentState = 'waiting';
  private seq = -1;
  private queue: StepBody[] = [];
  private milestone = 0;
  private callIndex = 0;
  private announced = false;
  private finishing = false;
  private readonly calls: number[];
  private readonly done: Array<{ id: string; seq: number }> = [];
  private readonly received: ReceivedCorrection[] = [];
  private readonly truth?: InjectedFailure;
  private readonly failAt?: { milestone: number; call: number };
  private pattern?: Pattern;
  private patternTurns = 0;
  private callCounter = 0;

  constructor(private readonly setup: AgentSetup) {
    const { rng, template } = setup;
    this.calls = template.milestones.map(() => rng.int(2, 4));
    if (setup.failure) {
      // Early in the task, so that even a short run shows the failure and what corrects it.
      const milestone = rng.int(0, Math.min(1, template.milestones.length - 1));
      this.failAt = { milestone, call: rng.int(0, this.calls[milestone] - 1) };
      this.truth = {
        tenantId: setup.tenantId,
        agentId: setup.agentId,
        taskId: setup.taskId,
        runId: setup.runId,
        kind: setup.failure.kind,
        respondsTo: setup.failure.respondsTo,
        claimedDetectors: setup.failure.claimed,
        startSeq: null,
        recoveredAtSeq: null,
      };
    }
  }

  get tenantId(): string {
    return this.setup.tenantId;
  }

  get agentId(): string {
    return this.setup.agentId;
  }

  get status(): AgentState {
    return this.state;
  }

  get active(): boolean {
    return this.state !== 'done' && this.state !== 'frozen';
  }

  /** The agent's next step in round `round`, or undefined when it is not (or no longer) working. */
  nextStep(round: number, ts: string): StepEvent | undefined {
    if (this.state === 'waiting') {
      if (round < this.setup.startRound) return undefined;
      this.state = 'working';
    }
    if (!this.active) return undefined;
    if (this.queue.length === 0) this.refill();
    const body = this.queue.shift()!;
    this.seq++;
    if (body.kind === 'milestone') this.done.push({ id: body.milestone.id, seq: this.seq });
    if (this.queue.length === 0) {
      if (this.finishing) this.state = 'done';
      else if (this.state === 'recovering') this.state = 'working';
    }
    const { tenantId, agentId, taskId, runId } = this.setup;
    return { schema: 'wayfinder.step.v1', eventId: `${tenantId}/${agentId}/${runId}/${this.seq}`, tenantId, agentId, taskId, runId, ts, seq: this.seq, ...body } as StepEvent;
  }

  /** Applies a correction addressed to this agent; returns what it did. */
  applyCorrection(c: Correction): ReceivedCorrection {
    let effect: ReceivedCorrection['effect'];
    if (!this.active) effect = 'late';
    else if (c.action === 'freeze') {
      effect = 'frozen';
      this.state = 'frozen';
      this.queue = [];
    } else if (this.state !== 'looping') effect = 'unneeded';
    else if (CORRECTION_RANK[c.action] >= CORRECTION_RANK[this.truth!.respondsTo]) {
      effect = 'recovered';
      this.recover();
    } else effect = 'ignored';
    const record: ReceivedCorrection = { eventId: c.eventId, action: c.action, severity: c.severity, atSeq: c.atSeq, receivedAtSeq: this.seq, effect, reason: c.reason };
    this.received.push(record);
    return record;
  }

  record(): AgentRecord {
    const { tenantId, agentId, taskId, runId, template } = this.setup;
    return {
      tenantId,
      agentId,
      taskId,
      runId,
      state: this.state,
      lastSeq: this.seq,
      milestones: template.milestones.map((m) => m.id),
      milestonesDone: [...this.done],
      ...(this.truth ? { failure: { ...this.truth } } : {}),
      corrections: [...this.received],
    };
  }

  get failure(): InjectedFailure | undefined {
    return this.truth;
  }

  private ctx() {
    return { rng: this.setup.rng, subject: this.setup.subject, callId: () => `${this.setup.agentId}-c${++this.callCounter}` };
  }

  private refill(): void {
    if (this.state === 'looping') {
      this.queue.push(...this.pattern!.next(this.patternTurns++));
      return;
    }
    const { template, rng, subject } = this.setup;
    if (this.failAt && this.truth!.startSeq === null && this.milestone === this.failAt.milestone && this.callIndex === this.failAt.call) {
      this.state = 'looping';
      this.truth!.startSeq = this.seq + 1;
      this.pattern = patternFor(this.truth!.kind, this.ctx());
      this.queue.push(...this.pattern.next(this.patternTurns++));
      return;
    }
    if (this.milestone >= template.milestones.length) {
      this.queue.push({ kind: 'message', message: { role: 'assistant', type: 'output', text: `Finished: ${template.goal(subject)}.` } });
      this.finishing = true;
      return;
    }
    const m = template.milestones[this.milestone];
    if (!this.announced) {
      this.announced = true;
      if (rng.chance(0.6)) {
        this.queue.push({ kind: 'message', message: { role: 'assistant', type: 'thought', text: `Next: ${m.description.toLowerCase()} for ${subject} (${words(rng, 4)}).` } });
        return;
      }
    }
    if (this.callIndex < this.calls[this.milestone]) {
      const spec = m.call(rng, this.callIndex++, subject);
      this.queue.push(...call(this.ctx(), spec.tool, { ...spec.args, purpose: purposeOf(m.description, subject) }, spec.ok, spec.content));
      return;
    }
    this.completeMilestone();
  }

  private completeMilestone(): void {
    const m = this.setup.template.milestones[this.milestone];
    this.queue.push({ kind: 'milestone', milestone: { id: m.id, status: 'done', evidence: `${m.description} (${this.setup.subject})` } });
    this.milestone++;
    this.callIndex = 0;
    this.announced = false;
  }

  /** Out of the failure: answer the call in flight, do one more piece of real work, finish the milestone. */
  private recover(): void {
    this.state = 'recovering';
    this.truth!.recoveredAtSeq = this.seq + 1;
    this.queue = this.queue.filter((b) => b.kind === 'observation');
    const { template, rng, subject } = this.setup;
    const m = template.milestones[this.milestone];
    const spec = m.call(rng, this.calls[this.milestone], subject);
    this.queue.push(...call(this.ctx(), spec.tool, { ...spec.args, purpose: purposeOf(m.description, subject) }, spec.ok, spec.content));
    this.completeMilestone();
  }
}

/** Healthy work says what it is for, in the task's words: that is what keeps it on-topic for drift. */
function purposeOf(description: string, subject: string): string {
  return `${description.toLowerCase()} for ${subject}`;
}
