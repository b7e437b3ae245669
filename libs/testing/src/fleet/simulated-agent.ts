/**
 * One simulated agent: works through its task's milestones one turn (one step event) at a time, falls
 * into its injected failure at a chosen point, and answers corrections. With `recovery: 'rank'` a
 * correction at or above its responsiveness breaks the failure and a weaker one is ignored (the pipeline
 * tests' deterministic agent). With `recovery: 'content'` the chance to recover depends on what the
 * correction says (recovery-model.ts), drawn from the agent's own seeded stream; a correction that fits
 * the failure also lets it resume the milestone's remaining work, a generic one only gets it moving on.
 * A freeze stops it for a human either way.
 */
import type { Correction, StepEvent } from '@wayfinder/contracts';
import { judgeCorrection, RECOVERY_MODEL } from './recovery-model';
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
  /** How corrections are answered (default 'rank'). */
  recovery?: 'rank' | 'content';
  /** The stream recovery draws come from (content mode). */
  recoveryRng?: Prng;
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
  /** Items gathered for the task's anchor (healthy calls of the anchor's milestone). */
  private items = 0;

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

  /**
   * A person resumed the frozen agent (an operator's resume reached it): it comes out of its failure as
   * after a correction that told it where it was, and works on. False when it was not frozen.
   */
  resume(): boolean {
    if (this.state !== 'frozen') return false;
    if (this.truth) this.recover(true);
    else this.state = 'working';
    return true;
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
    // Tokens a model would spend on the turn: its context overhead and what it wrote or read (≈4 chars a token).
    // and how long the turn took (from its length, not the random stream, so seeded runs do not shift).
    const chars = JSON.stringify(body).length;
    const usage = { inputTokens: 400, outputTokens: Math.ceil(chars / 4), latencyMs: 150 + ((chars * 37) % 1200) };
    return { schema: 'wayfinder.step.v1', eventId: `${tenantId}/${agentId}/${runId}/${this.seq}`, tenantId, agentId, taskId, runId, ts, seq: this.seq, usage, ...body } as StepEvent;
  }

  /** Applies a correction addressed to this agent; returns what it did. */
  applyCorrection(c: Correction): ReceivedCorrection {
    let effect: ReceivedCorrection['effect'] | undefined;
    if (!this.active) effect = 'late';
    else if (c.action === 'freeze') {
      effect = 'frozen';
      this.state = 'frozen';
      this.queue = [];
    } else if (this.state !== 'looping') effect = 'unneeded';
    let judged: { specific: boolean; chance: number } | undefined;
    if (effect === undefined && c.action !== 'freeze') {
      if (this.setup.recovery === 'content') {
        judged = judgeCorrection(c, this.failureView());
        // Drawn whatever the outcome, so the k-th correction takes the k-th draw in every arm.
        const draw = this.recoveryRng().next();
        effect = draw < judged.chance ? 'recovered' : 'ignored';
        if (effect === 'recovered') this.recover(judged.specific);
      } else if (CORRECTION_RANK[c.action] >= CORRECTION_RANK[this.truth!.respondsTo]) {
        effect = 'recovered';
        this.recover(false);
      } else effect = 'ignored';
    }
    const record: ReceivedCorrection = {
      eventId: c.eventId,
      action: c.action,
      severity: c.severity,
      atSeq: c.atSeq,
      receivedAtSeq: this.seq,
      effect: effect ?? 'ignored',
      reason: c.reason,
      ...(judged ? { specific: judged.specific, chance: judged.chance } : {}),
    };
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
      if (this.setup.recovery === 'content' && this.recoveryRng().chance(RECOVERY_MODEL.selfRecoveryPerTurn)) this.recover(false);
      else {
        this.queue.push(...this.pattern!.next(this.patternTurns++));
        return;
      }
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
      const anchor = template.anchor;
      const found = anchor ? ` Found ${this.items} ${anchor.unit}: ${Array.from({ length: this.items }, (_, k) => `${anchor.item} ${k + 1}`).join(', ')}.` : '';
      this.queue.push({ kind: 'message', message: { role: 'assistant', type: 'output', text: `Finished: ${template.goal(subject)}.${found}` } });
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
      if (template.anchor?.milestone === m.id) this.items++;
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

  /**
   * Out of the failure: answer the call in flight, then either resume the milestone's remaining work
   * (`resume`: the correction told it where it was and what failed) or do one more piece of real work
   * and move on, leaving the rest of the milestone undone.
   */
  private recover(resume: boolean): void {
    this.state = 'recovering';
    this.truth!.recoveredAtSeq = this.seq + 1;
    this.queue = this.queue.filter((b) => b.kind === 'observation');
    if (resume) {
      if (this.queue.length === 0) this.state = 'working';
      return;
    }
    const { template, rng, subject } = this.setup;
    const m = template.milestones[this.milestone];
    const spec = m.call(rng, this.calls[this.milestone], subject);
    if (template.anchor?.milestone === m.id) this.items++;
    this.queue.push(...call(this.ctx(), spec.tool, { ...spec.args, purpose: purposeOf(m.description, subject) }, spec.ok, spec.content));
    this.completeMilestone();
  }

  private recoveryRng(): Prng {
    return this.setup.recoveryRng ?? this.setup.rng;
  }

  private failureView() {
    const m = this.setup.template.milestones[Math.min(this.milestone, this.setup.template.milestones.length - 1)];
    return {
      respondsTo: this.truth!.respondsTo,
      startSeq: this.truth!.startSeq ?? 0,
      tools: this.pattern?.tools ?? [],
      values: this.pattern?.values ?? [],
      milestone: { id: m.id, description: m.description },
      open: this.setup.template.milestones.slice(this.milestone).map((x) => x.id),
    };
  }
}

/** Healthy work says what it is for, in the task's words: that is what keeps it on-topic for drift. */
function purposeOf(description: string, subject: string): string {
  return `${description.toLowerCase()} for ${subject}`;
}
