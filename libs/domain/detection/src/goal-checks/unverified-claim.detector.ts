/**
 * `unverified_claim` (PROJECT-RULES.md P9, issue #32 "claims nobody checks"): an agent's word that a
 * milestone is done, that it is blocked, or that it has finished is checked against what its tools said.
 * A `done` is judged by the milestone's validator (claim-evidence.ts); a "blocked" (an assistant message, or
 * a milestone `failed` whose reason says so) needs failed calls at the impasse; a "finished" needs the evidence of every
 * milestone the map can check. Unbacked: a warning (a hint naming what is missing), critical from the
 * `verification.claimCritical`-th unbacked claim of the same kind in the run.
 */
import type { CognitiveMap, JsonValue, Position, StepEvent } from '@wayfinder/contracts';
import type { DetectionContext, DeviationDraft, StepDetector } from '../types';
import type { AgentSlots } from '../state/agent-runs';
import { describeLeaf, judgeDone, leavesSeenIn, type ClaimVerdict } from './claim-evidence';
import { readClaim } from './claim-phrases';
import { RUN_ID_FIELD } from '../state/agent-runs';
import { RunStates, stringArray } from './run-states';

const MAX_SEEN = 7 * 16;
const MAX_CLAIM_KEYS = 16;
const MAX_PREVIEW = 160;

const NONE: ReadonlySet<string> = new Set<string>();

/**
 * What one run has shown: the evidence leaves seen, its failures at the end, and the unbacked claims so
 * far. A run has one only from its first failed call, evidence leaf or claim on (DESIGN §7 memory budget:
 * a run whose calls all succeed keeps nothing; no state reads as "no call failed").
 */
class ClaimRunState {
  /** The run id (RunKey: an agent's single run is held without a wrapper). */
  runId = '';
  seen: Set<string> | undefined;
  /** Failed outcomes since the last successful one. */
  failures = 0;
  /** The outcome of the newest call: 'none' before the first. */
  last: 'none' | 'ok' | 'failed' = 'none';
  /** Unbacked claims by kind (`done:<milestone>`, `blocked`, `finished`). */
  unbacked: Record<string, number> | undefined;
}

function revive(raw: unknown): ClaimRunState | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const r = raw as Record<string, unknown>;
  const out = new ClaimRunState();
  const seen = stringArray(r['seen'], MAX_SEEN);
  if (seen.length > 0) out.seen = new Set(seen);
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.trunc(v) : 0);
  out.failures = num(r['failures']);
  out.last = r['last'] === 'ok' || r['last'] === 'failed' ? r['last'] : 'none';
  const unbacked = r['unbacked'];
  if (unbacked && typeof unbacked === 'object' && !Array.isArray(unbacked)) {
    for (const [k, v] of Object.entries(unbacked).slice(-MAX_CLAIM_KEYS)) if (num(v) > 0) (out.unbacked ??= {})[k] = num(v);
  }
  return out;
}

/**
 * The body this detector reads has the contract's shape (the services parse steps at the edge; the engine
 * is total on anything, and so is this detector: a malformed step is skipped).
 */
function wellFormed(step: StepEvent): boolean {
  const body = (step as unknown as Record<string, unknown>)[step.kind];
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  switch (step.kind) {
    case 'action':
      return typeof b['tool'] === 'string' && !!b['args'] && typeof b['args'] === 'object';
    case 'observation':
      return typeof b['tool'] === 'string';
    case 'message':
      return typeof b['text'] === 'string';
    case 'milestone':
      return typeof b['id'] === 'string';
    default:
      return false;
  }
}

function preview(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, MAX_PREVIEW);
}

export class UnverifiedClaimDetector implements StepDetector {
  readonly name = 'unverified_claim' as const;
  private readonly runs = new RunStates<ClaimRunState>(() => new ClaimRunState(), revive, RUN_ID_FIELD);
  /** The verdict on the newest `done` judged, for verification_failed_repeat (it runs after this detector). */
  private lastDone: { eventId: string; verdict: ClaimVerdict } | undefined;

  /** How this detector judged a `done` step it has just seen (unchecked when it did not judge it). */
  verdictOf(step: StepEvent): ClaimVerdict {
    return this.lastDone?.eventId === step.eventId ? this.lastDone.verdict : { verdict: 'unchecked' };
  }

  onStep(step: StepEvent, _position: Position | undefined, ctx: DetectionContext): DeviationDraft[] {
    const settings = ctx.policy.verification;
    if (!settings.enabled || !settings.claims) return [];
    if (!wellFormed(step)) return [];
    const held = this.runs.peek(step);
    const map = ctx.map;
    if (map) {
      const seen = leavesSeenIn(step, map, held?.seen ?? NONE);
      if (seen.length > 0) {
        const state = held ?? this.runs.of(step);
        for (const key of seen) (state.seen ??= new Set()).add(key);
      }
    }
    const state = (): ClaimRunState => this.runs.of(step);
    switch (step.kind) {
      case 'observation':
        if (step.observation.ok !== true) {
          const s = state();
          s.failures += 1;
          s.last = 'failed';
        } else if (held) {
          held.failures = 0;
          held.last = 'ok';
        }
        return [];
      case 'message': {
        if (step.message.role !== 'assistant' || step.message.type === 'thought') return [];
        const claim = readClaim(step.message.text);
        if (!claim) return [];
        if (claim.kind === 'blocked') return this.blocked(step, held, state, ctx, `"${preview(claim.phrase)}"`);
        return map ? this.finished(step, held, state, map, ctx, claim.phrase) : [];
      }
      case 'milestone':
        return this.milestone(step, held, state, map, ctx);
      default:
        return [];
    }
  }

  private milestone(step: Extract<StepEvent, { kind: 'milestone' }>, held: ClaimRunState | undefined, state: () => ClaimRunState, map: CognitiveMap | undefined, ctx: DetectionContext): DeviationDraft[] {
    const { id, status } = step.milestone;
    const evidence = typeof step.milestone.evidence === 'string' ? step.milestone.evidence : undefined;
    if (status === 'started') return [];
    if (status === 'failed') {
      // A failure whose reason says the agent cannot go on is a "blocked" claim; any other failure is the
      // verification's (verification_failed_repeat counts it).
      const claim = evidence ? readClaim(evidence) : undefined;
      return claim?.kind === 'blocked' ? this.blocked(step, held, state, ctx, `milestone ${id} failed: "${preview(claim.phrase)}"`, id) : [];
    }
    if (!map) return [];
    const verdict = judgeDone(map, id, held?.seen ?? NONE);
    this.lastDone = { eventId: step.eventId, verdict };
    if (verdict.verdict !== 'contradicted') {
      if (verdict.verdict === 'verified' && held?.unbacked) delete held.unbacked[`done:${id}`];
      return [];
    }
    const missing = verdict.missing.map((l) => describeLeaf(l.validator));
    return this.unbacked(step, state(), ctx, `done:${id}`, { claim: 'done', milestoneId: id, missing: missing.join('; ') }, `Milestone ${id} claimed done, but its validator is not satisfied: missing ${missing.join('; ')} in the run.`);
  }

  private blocked(step: StepEvent, held: ClaimRunState | undefined, state: () => ClaimRunState, ctx: DetectionContext, said: string, milestoneId?: string): DeviationDraft[] {
    const needed = ctx.policy.verification.blockedAttempts ?? 1;
    const failures = held?.failures ?? 0;
    if (failures >= needed) return [];
    const last = held?.last ?? 'none';
    const why =
      last === 'ok'
        ? 'the last call succeeded'
        : failures === 0
          ? 'no call failed in the run'
          : `${failures} failed call${failures === 1 ? '' : 's'} at the impasse, ${needed} needed`;
    return this.unbacked(
      step,
      state(),
      ctx,
      'blocked',
      {
        claim: 'blocked',
        ...(milestoneId !== undefined ? { milestoneId } : {}),
        lastOutcome: last,
        failedAttempts: failures,
        requiredAttempts: needed,
        missing: `${needed} failed call${needed === 1 ? '' : 's'} at the impasse (${why})`,
      },
      `The agent claims it is blocked (${said}), but ${why}.`,
    );
  }

  private finished(step: StepEvent, held: ClaimRunState | undefined, state: () => ClaimRunState, map: CognitiveMap, ctx: DetectionContext, phrase: string): DeviationDraft[] {
    const open: string[] = [];
    const missing: string[] = [];
    for (const m of map.milestones) {
      const v = judgeDone(map, m.id, held?.seen ?? NONE);
      if (v.verdict !== 'contradicted') continue;
      open.push(m.id);
      missing.push(`${m.id}: ${v.missing.map((l) => describeLeaf(l.validator)).join(', ')}`);
    }
    if (open.length === 0) return [];
    return this.unbacked(step, state(), ctx, 'finished', { claim: 'finished', phrase: preview(phrase), milestones: open, missing: missing.join('; ') }, `The agent says "${preview(phrase)}", but milestones ${open.join(', ')} have no evidence (${missing.join('; ')}).`);
  }

  private unbacked(step: StepEvent, state: ClaimRunState, ctx: DetectionContext, key: string, evidence: Record<string, JsonValue>, message: string): DeviationDraft[] {
    const unbacked = (state.unbacked ??= {});
    const count = (unbacked[key] ?? 0) + 1;
    delete unbacked[key];
    unbacked[key] = count;
    const keys = Object.keys(unbacked);
    if (keys.length > MAX_CLAIM_KEYS) delete unbacked[keys[0]];
    const critical = count >= (ctx.policy.verification.claimCritical ?? 2);
    return [{ detector: 'unverified_claim', level: critical ? 'critical' : 'warning', count, atSeq: step.seq, loopStartSeq: step.seq, evidence: { ...evidence, claims: count }, message }];
  }

  exportState(tenantId: string, agentId: string): unknown {
    return this.runs.export(tenantId, agentId, (s) => ({ ...s, seen: s.seen ? [...s.seen] : undefined }));
  }

  importState(tenantId: string, agentId: string, state: unknown): void {
    this.runs.import(tenantId, agentId, state);
  }

  forget(tenantId: string, agentId: string): void {
    this.runs.forget(tenantId, agentId);
  }

  useAgentSlots(slots: AgentSlots): void {
    this.runs.useAgentSlots(slots);
  }
}
