/**
 * `near_duplicate_calls` (DESIGN §5.3): the same tool called again with reworded arguments (a rephrased
 * query, code retried with small changes) while the result brings nothing new (the same error again, or
 * a result similar to the previous one). Exact repeats are the tool-loop detectors' job; this one sees
 * through rewording with the embedder. Evaluated when the observation arrives, because only then is it
 * known whether the call brought anything new; `count` is the number of such repeats in a row.
 */
import type { PolicySettings } from '@wayfinder/contracts';
import { shouldReport } from '../state/dedup';
import { NEAR_DUP_SLOTS, NEAR_META, NEAR_VECTORS_OFFSET, type RunState } from '../state/run-state';
import { copySketch, isZeroSketch, SKETCH_WORDS, sketchCosine } from '../state/sketch';
import { distinctTargets } from '../fingerprint/text-of';
import { hashHex } from '../fingerprint/hash';
import { RecordFlag } from '../state/run-history';
import type { DeviationDraft } from '../types';

const enum NearMeta {
  Tool = 0,
  Chain = 1,
  ChainStart = 2,
  LastError = 3,
  Flags = 4,
  LastUse = 5,
  PendingSimilarity = 6, // args similarity of the pending call to the previous one, in 1/1000
  ActionSeq = 7,
  PreviousActionSeq = 8,
  TargetsLo = 9,
  TargetsHi = 10,
  LastResult = 11, // resultHash of the last outcome
  Pending = 12, // bits of the pending call: PendingBit
}
const enum PendingBit {
  SameArgs = 1, // the call repeats the previous args exactly
  AfterWork = 2, // another tool's call succeeded between the previous call of this tool and this one
}
const HAS_ARGS = 1;
const HAS_RESULT = 2;
const PENDING = 4;
const LONG_ARGS = 8;
/** Every call of the current chain repeated the previous one's args exactly (canonical JSON, keys in any order). */
const CHAIN_IDENTICAL = 16;
/** The chain began with the two bits above tracked (a state saved before them mid-chain does not know). */
const CHAIN_ARGS_KNOWN = 32;

function findSlot(meta: Int32Array, base: number, tool: number): number {
  for (let i = 0; i < NEAR_DUP_SLOTS; i++) {
    const m = base + i * NEAR_META;
    if (meta[m + NearMeta.Tool] === tool && meta[m + NearMeta.Flags] !== 0) return i;
  }
  return -1;
}

export function nearDuplicateOnAction(
  run: RunState,
  toolHash: number,
  argsSketch: Int32Array,
  sameArgs: boolean,
  seq: number,
  longArgs: boolean,
  targets: [number, number],
  afterWork = false,
): void {
  run.ensureNearDup();
  const meta = run.data;
  const vectors = meta;
  const base = run.extraOffset;
  let slot = findSlot(meta, base, toolHash);
  if (slot < 0) {
    slot = 0;
    for (let i = 1; i < NEAR_DUP_SLOTS; i++) if (meta[base + i * NEAR_META + NearMeta.LastUse] < meta[base + slot * NEAR_META + NearMeta.LastUse]) slot = i;
    meta.fill(0, base + slot * NEAR_META, base + (slot + 1) * NEAR_META);
    meta[base + slot * NEAR_META + NearMeta.Tool] = toolHash;
  }
  const m = base + slot * NEAR_META;
  const argsOffset = run.vectorsOffset + NEAR_VECTORS_OFFSET + slot * SKETCH_WORDS * 2;
  let similarity = 0;
  if (meta[m + NearMeta.Flags] & HAS_ARGS) {
    const bothEmpty = isZeroSketch(argsSketch, 0) && isZeroSketch(vectors, argsOffset);
    similarity = sameArgs || bothEmpty ? 1 : sketchCosine(argsSketch, 0, vectors, argsOffset);
    // Different targets (another file, URL, id or page) make a batch, however alike the rest of the args reads.
    const previous = [meta[m + NearMeta.TargetsLo], meta[m + NearMeta.TargetsHi]];
    if (!sameArgs && !longArgs && distinctTargets(previous, targets)) similarity = 0;
  }
  meta[m + NearMeta.Pending] = (sameArgs ? PendingBit.SameArgs : 0) | (afterWork ? PendingBit.AfterWork : 0);
  meta[m + NearMeta.TargetsLo] = targets[0];
  meta[m + NearMeta.TargetsHi] = targets[1];
  copySketch(argsSketch, 0, vectors, argsOffset);
  meta[m + NearMeta.PendingSimilarity] = Math.round(similarity * 1000);
  meta[m + NearMeta.PreviousActionSeq] = meta[m + NearMeta.Flags] & HAS_ARGS ? meta[m + NearMeta.ActionSeq] : seq;
  meta[m + NearMeta.ActionSeq] = seq;
  meta[m + NearMeta.Flags] = (meta[m + NearMeta.Flags] & ~LONG_ARGS) | HAS_ARGS | PENDING | (longArgs ? LONG_ARGS : 0);
  meta[m + NearMeta.LastUse] = ++run.touched;
}

export function nearDuplicateOnObservation(
  run: RunState,
  tool: string,
  toolHash: number,
  resultSketch: Int32Array,
  result: number,
  error: number,
  settings: PolicySettings['nearDuplicate'],
  retryable = false,
): DeviationDraft | null {
  if (!run.nearUsed || !run.hasVectors) return null;
  const meta = run.data;
  const base = run.extraOffset;
  const vectors = meta;
  const slot = findSlot(meta, base, toolHash);
  if (slot < 0) return null;
  const m = base + slot * NEAR_META;
  if ((meta[m + NearMeta.Flags] & PENDING) === 0) return null;
  const resultOffset = run.vectorsOffset + NEAR_VECTORS_OFFSET + slot * SKETCH_WORDS * 2 + SKETCH_WORDS;
  const hadResult = (meta[m + NearMeta.Flags] & HAS_RESULT) !== 0;
  let resultSimilarity = 0;
  if (hadResult) {
    const bothEmpty = isZeroSketch(resultSketch, 0) && isZeroSketch(vectors, resultOffset);
    resultSimilarity = bothEmpty ? 1 : sketchCosine(resultSketch, 0, vectors, resultOffset);
  }
  const previousFailed = meta[m + NearMeta.LastError] !== 0;
  const sameError = error !== 0 && meta[m + NearMeta.LastError] === error;
  // A failure after a failure brings nothing new once the errors read alike; successes must look alike.
  const failedAgain = error !== 0 && previousFailed && resultSimilarity >= (settings.errorSimilarity ?? settings.resultSimilarity);
  // An exact repeat is judged on exact outcomes (a poll whose output moves is progress); a reworded one on similarity.
  const pending = meta[m + NearMeta.Pending];
  const repeated = (pending & PendingBit.SameArgs) !== 0;
  // Evidence of progress (DESIGN §5.3, project rule P1): work done by another tool in between (ls between
  // edits), or a retryable error (a timeout, a 503) whose retry is what the agent should do.
  const progressed = (pending & PendingBit.AfterWork) !== 0 || (error !== 0 && retryable);
  const nothingNew =
    hadResult &&
    !progressed &&
    (repeated
      ? sameError || result === meta[m + NearMeta.LastResult]
      : sameError || failedAgain || (error === 0 && resultSimilarity >= settings.resultSimilarity));
  const argsSimilarity = meta[m + NearMeta.PendingSimilarity] / 1000;
  const longArgs = (meta[m + NearMeta.Flags] & LONG_ARGS) !== 0;
  const nearDuplicate = argsSimilarity >= (longArgs && error === 0 ? (settings.longArgsSimilarity ?? settings.argsSimilarity) : settings.argsSimilarity);
  if (nearDuplicate && nothingNew) {
    if (meta[m + NearMeta.Chain] === 0) {
      meta[m + NearMeta.ChainStart] = meta[m + NearMeta.PreviousActionSeq];
      meta[m + NearMeta.Flags] |= CHAIN_IDENTICAL | CHAIN_ARGS_KNOWN;
    }
    if (!repeated) meta[m + NearMeta.Flags] &= ~CHAIN_IDENTICAL;
    meta[m + NearMeta.Chain]++;
  } else {
    meta[m + NearMeta.Chain] = 0;
  }
  copySketch(resultSketch, 0, vectors, resultOffset);
  meta[m + NearMeta.LastError] = error;
  meta[m + NearMeta.LastResult] = result;
  meta[m + NearMeta.Flags] = (meta[m + NearMeta.Flags] | HAS_RESULT) & ~PENDING;

  const chain = meta[m + NearMeta.Chain];
  const warningAt = error === 0 ? (settings.successWarning ?? settings.warning) : settings.warning;
  if (chain < warningAt) return null;
  const critical = chain >= settings.critical;
  const level = critical ? 'critical' : 'warning';
  const start = meta[m + NearMeta.ChainStart];
  const flags = meta[m + NearMeta.Flags];
  const identicalArgs = flags & CHAIN_ARGS_KNOWN ? (flags & CHAIN_IDENTICAL) !== 0 : undefined;
  if (!shouldReport(run, `near_duplicate_calls|${level}|${toolHash}:${start}`, chain, critical ? settings.critical : warningAt)) return null;
  return {
    detector: 'near_duplicate_calls',
    level,
    count: chain,
    atSeq: 0,
    loopStartSeq: start,
    evidence: {
      tool,
      similarity: Math.round(argsSimilarity * 1000) / 1000,
      resultSimilarity: Math.round(resultSimilarity * 1000) / 1000,
      sameError,
      ...(identicalArgs === undefined ? {} : { identicalArgs }),
      // A reworded chain whose newest call repeated the previous args exactly: the hint says both.
      ...(identicalArgs === false && repeated && { lastIdentical: true }),
    },
    message: `"${tool}" was called ${chain + 1} times in a row with ${identicalArgs === undefined ? 'near-identical' : identicalArgs ? 'identical' : repeated ? 'reworded, then identical,' : 'reworded'} arguments and nothing new came back${sameError ? ' (the same error each time)' : ''}; change the approach.`,
  };
}

/**
 * The early stage of P1 ("The third identical call", `identicalWarning`): judged when the next call of the
 * tool arrives, before nearDuplicateOnAction records it. When the chain so far is made of identical calls
 * (the same args, canonical JSON) that succeeded with the same normalized result — so every piece of P1's
 * evidence of no progress already holds for them — and the new call repeats them exactly, right after the
 * last one, the new call is a repeat whose outcome the two before it already told: a warning, the first rung
 * (a hint), at the call itself, as the peers that stop the third identical call do. Failures are left to the
 * observation (a non-retryable one is a deviation from its first repeat; a retryable one may succeed next).
 * Shares the chain's de-duplication key with the observation stage, so one chain gives one warning.
 */
export function nearDuplicateEarlyOnAction(
  run: RunState,
  tool: string,
  toolHash: number,
  argsHash: string,
  settings: PolicySettings['nearDuplicate'],
  /** The call repeats the previous one only once volatile ids are masked (P11): a fresh poll id, a new time stamp. */
  masked = false,
): DeviationDraft | null {
  const at = settings.identicalWarning;
  if (at === undefined || !run.nearUsed) return null;
  const meta = run.data;
  const base = run.extraOffset;
  const slot = findSlot(meta, base, toolHash);
  if (slot < 0) return null;
  const m = base + slot * NEAR_META;
  const flags = meta[m + NearMeta.Flags];
  // The previous call has its outcome, the chain is all identical calls (and known to be), and it succeeded.
  if ((flags & (HAS_RESULT | PENDING)) !== HAS_RESULT) return null;
  if ((flags & (CHAIN_IDENTICAL | CHAIN_ARGS_KNOWN)) !== (CHAIN_IDENTICAL | CHAIN_ARGS_KNOWN)) return null;
  if (meta[m + NearMeta.LastError] !== 0 || meta[m + NearMeta.Chain] === 0) return null;
  const count = meta[m + NearMeta.Chain] + 1;
  // Once per chain, when it reaches the threshold; what comes after is the observation stage's (outcome in hand).
  if (count !== at) return null;
  const start = meta[m + NearMeta.ChainStart];
  if (!shouldReport(run, `near_duplicate_calls|warning|${toolHash}:${start}`, count, at)) return null;
  return {
    detector: 'near_duplicate_calls',
    level: 'warning',
    count,
    atSeq: 0,
    loopStartSeq: start,
    evidence: {
      tool,
      argsHash,
      resultHash: hashHex(meta[m + NearMeta.LastResult]),
      similarity: 1,
      resultSimilarity: 1,
      sameError: false,
      identicalArgs: true,
      early: true,
      ...(masked && { volatileIdsMasked: true }),
    },
    message: `"${tool}" was called ${count + 1} times in a row with identical arguments${masked ? ' (apart from fresh ids or time stamps)' : ''}, and the calls before this one returned the same result; repeating it will not bring anything new.`,
  };
}

/**
 * P1, "Identical calls in one batch": the same call issued again before any of its copies came back (one
 * model turn asking for the same tool call several times, as OpenCode counts repeats within one message).
 * Judged at the action, before it is recorded: the newest prior records are calls of this tool with the
 * same args (canonical JSON), all still pending; `count` = those copies (this call is the count-th repeat).
 * A warning at `identicalWarning` (the third identical call of the batch in balanced), evidence `pending`:
 * no outcome is known yet, the repeat itself is the waste. A batch over distinct targets has other args.
 */
export function identicalCallsInOneBatch(run: RunState, tool: string, toolHash: number, argsHash: number, settings: PolicySettings['nearDuplicate']): DeviationDraft | null {
  const at = settings.identicalWarning;
  if (at === undefined) return null;
  const h = run.history;
  let count = 0;
  let startSeq = -1;
  for (let i = 0; i < h.size; i++) {
    const s = h.slot(i);
    if (h.tool(s) !== toolHash || h.args(s) !== argsHash || (h.flags(s) & RecordFlag.Outcome) !== 0) break;
    count++;
    startSeq = h.seq(s);
  }
  if (count !== at) return null;
  if (!shouldReport(run, `near_duplicate_calls|warning|batch:${toolHash}:${startSeq}`, count, at)) return null;
  return {
    detector: 'near_duplicate_calls',
    level: 'warning',
    count,
    atSeq: 0,
    loopStartSeq: startSeq,
    evidence: { tool, argsHash: hashHex(argsHash), similarity: 1, identicalArgs: true, early: true, pending: count + 1 },
    message: `"${tool}" was called ${count + 1} times with identical arguments before any of the calls came back; one call is enough, wait for its result.`,
  };
}

/**
 * Progress seen outside the calls (a milestone done, the position moving forward, a compaction that lost
 * the context): every chain ends and the next call of each tool is compared with nothing, so a read
 * repeated after a compaction or a search repeated for the next milestone is never a repeat.
 */
export function clearNearDuplicateEvidence(run: RunState): void {
  if (!run.nearUsed) return;
  const meta = run.data;
  const base = run.extraOffset;
  for (let i = 0; i < NEAR_DUP_SLOTS; i++) {
    const m = base + i * NEAR_META;
    if (meta[m + NearMeta.Flags] === 0) continue;
    meta[m + NearMeta.Chain] = 0;
    meta[m + NearMeta.Flags] &= ~HAS_RESULT;
  }
}
