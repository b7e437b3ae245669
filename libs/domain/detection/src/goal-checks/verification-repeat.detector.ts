/**
 * `verification_failed_repeat` (the doom-loop report's "verification keeps failing"): the same milestone
 * reported `failed` `policy.verification.failures` times (default 3) in a run, with no verified `done` in
 * between (a `done` whose validator is not satisfied counts as a failure: PROJECT-RULES.md P9),
 * is critical — the ladder freezes the agent and escalates. Evidence lists every attempt with its seq
 * and evidence text, so the escalation shows a human what was tried.
 */
import type { JsonValue, Position, StepEvent } from '@wayfinder/contracts';
import type { DetectionContext, DeviationDraft, StepDetector } from '../types';
import type { AgentSlots } from '../state/agent-runs';
import { SmallMap } from '../state/small-map';
import { RUN_ID_FIELD } from '../state/agent-runs';
import { RunStates } from './run-states';
import { describeLeaf } from './claim-evidence';
import type { UnverifiedClaimDetector } from './unverified-claim.detector';

const MAX_ATTEMPTS = 8;
const MAX_MILESTONES = 16;
const MAX_EVIDENCE = 300;

interface Attempt {
  seq: number;
  evidence: string;
}

/**
 * A milestone's failures since it was last done, and its latest attempts (at most MAX_ATTEMPTS): the
 * newest in fields, the ones before it in an array only once there are some (issue #14: a milestone that
 * failed once is one object, not a record, an array and an attempt). Persisted as `{ failures, attempts }`.
 */
class Failures {
  /** Every failure since the milestone was last done (the attempts shown are the latest few). */
  failures = 0;
  /** Attempts kept (0 before the first). */
  private count = 0;
  private seq = 0;
  private evidence = '';
  /** The attempts before the newest, oldest first; null while there are none. */
  private older: Attempt[] | null = null;

  static of(failures: number, attempts: readonly Attempt[]): Failures {
    const out = new Failures();
    out.failures = failures;
    for (const a of attempts.slice(-MAX_ATTEMPTS)) out.add(a.seq, a.evidence);
    return out;
  }

  get attempts(): Attempt[] {
    if (this.count === 0) return [];
    const newest = { seq: this.seq, evidence: this.evidence };
    return this.older ? [...this.older, newest] : [newest];
  }

  /** Adds the newest attempt (the oldest kept leaves past MAX_ATTEMPTS). */
  add(seq: number, evidence: string): void {
    if (this.count > 0) {
      // A new array of the exact length: a pushed-to one reserves room for 16 more.
      this.older = (this.older ?? []).slice(2 - MAX_ATTEMPTS).concat({ seq: this.seq, evidence: this.evidence });
    }
    this.count = Math.min(MAX_ATTEMPTS, this.count + 1);
    this.seq = seq;
    this.evidence = evidence;
  }

  toJSON(): { failures: number; attempts: Attempt[] } {
    return { failures: this.failures, attempts: this.attempts };
  }
}

/**
 * Failures by milestone, oldest first (a run mostly has one milestone failing: see SmallMap), and the
 * run's id, kept by RunStates (AgentRuns' RunKey: no wrapper per agent).
 */
class VerificationRunState extends SmallMap<Failures> {
  runId = '';
}

function revive(raw: unknown): VerificationRunState | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const out = new VerificationRunState();
  for (const [milestone, value] of Object.entries(raw as Record<string, unknown>).slice(-MAX_MILESTONES)) {
    const v = value as Partial<Failures> | null;
    if (!v || typeof v.failures !== 'number' || !Array.isArray(v.attempts)) continue;
    const attempts = v.attempts
      .filter((a): a is Attempt => !!a && typeof a === 'object' && typeof a.seq === 'number' && typeof a.evidence === 'string')
      .slice(-MAX_ATTEMPTS);
    out.set(milestone, Failures.of(v.failures, attempts));
  }
  return out;
}

export class VerificationRepeatDetector implements StepDetector {
  readonly name = 'verification_failed_repeat' as const;
  private readonly runs = new RunStates<VerificationRunState>(() => new VerificationRunState(), revive, RUN_ID_FIELD);

  /** `claims`: the claim checker that runs before this detector, whose verdict on a `done` it reads. */
  constructor(private readonly claims?: Pick<UnverifiedClaimDetector, 'verdictOf'>) {}

  onStep(step: StepEvent, _position: Position | undefined, ctx: DetectionContext): DeviationDraft[] {
    const settings = ctx.policy.verification;
    if (!settings.enabled || step.kind !== 'milestone' || !step.milestone || typeof step.milestone.id !== 'string') return [];
    const { id, status } = step.milestone;
    let evidence = typeof step.milestone.evidence === 'string' ? step.milestone.evidence : undefined;
    // What the milestone's validator did not see, when this attempt is a contradicted `done`: named in the deviation.
    let failingValidator: string | undefined;
    if (status === 'done') {
      // A `done` its validator contradicts (P9, judged by unverified_claim just before) is one more failed
      // verification, not a success: a validator that fails on every attempt is seen here.
      const judged = this.claims?.verdictOf(step);
      if (judged?.verdict !== 'contradicted') {
        this.runs.peek(step)?.delete(id);
        return [];
      }
      failingValidator = judged.missing.map((l) => describeLeaf(l.validator)).join(', ');
      evidence = `claimed done; missing ${failingValidator}`;
    } else if (status !== 'failed') return [];
    // A run keeps state from its first failed verification on (DESIGN §7 memory budget).
    const state = this.runs.of(step);
    const record = state.get(id) ?? new Failures();
    state.delete(id);
    state.set(id, record);
    if (state.size > MAX_MILESTONES) state.delete(state.keys().next().value as string);
    record.failures += 1;
    record.add(step.seq, (evidence ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_EVIDENCE));
    const { failures, attempts } = record;
    if (failures < settings.failures || failures % settings.failures !== 0) return [];
    const shown = attempts.map((a): JsonValue => ({ seq: a.seq, evidence: a.evidence }));
    const list = attempts.map((a) => `seq ${a.seq}${a.evidence ? `: "${a.evidence.slice(0, 120)}"` : ''}`).join('; ');
    return [
      {
        detector: 'verification_failed_repeat',
        level: 'critical',
        count: failures,
        atSeq: step.seq,
        loopStartSeq: attempts[0]?.seq ?? step.seq,
        evidence: { milestone: id, milestoneId: id, failures, attempts: shown, ...(failingValidator !== undefined && { failingValidator }) },
        message: `Milestone ${id} failed its verification ${failures} times (${list}): verification keeps failing, a human must decide.`,
      },
    ];
  }

  exportState(tenantId: string, agentId: string): unknown {
    return this.runs.export(tenantId, agentId, (s) => Object.fromEntries(s));
  }

  importState(tenantId: string, agentId: string, state: unknown): void {
    this.runs.import(tenantId, agentId, state);
  }

  forget(tenantId: string, agentId: string): void {
    this.runs.forget(tenantId, agentId);
  }

  /** Its per-agent state in the engine's agents (see StepDetector). */
  useAgentSlots(slots: AgentSlots): void {
    this.runs.useAgentSlots(slots);
  }
}
