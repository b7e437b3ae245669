/**
 * The tool-loop detectors (conformance README, "Tool-loop detectors"): when an action arrives, its
 * streaks are measured over the PRIOR records of the run's history and the first matching row of the
 * table wins. At most one tool-loop deviation per action.
 */
import type { DetectorName, DeviationLevel, PolicySettings } from '@wayfinder/contracts';
import { hashHex } from '../fingerprint/hash';
import { shouldReport } from '../state/dedup';
import { FLAG_BITS, RecordFlag, WORDS, type RunHistory } from '../state/run-history';
import type { RunState } from '../state/run-state';
import type { DeviationDraft } from '../types';

export interface ToolCall {
  tool: string;
  toolHash: number;
  argsHash: number;
  isPoll: boolean;
  /** A poll whose volatile ids were masked (P11, RecordFlag.MaskedArgs): never one side of a ping-pong. */
  maskedArgs?: boolean;
}

interface Streak {
  count: number;
  startSeq: number;
}

/** Prior records with the same argsHash, pending ones included. */
export function recentCount(h: RunHistory, args: number): Streak {
  let count = 0;
  let startSeq = -1;
  for (let i = 0; i < h.size; i++) {
    const s = h.slot(i);
    if (h.args(s) === args) {
      count++;
      startSeq = h.seq(s);
    }
  }
  return { count, startSeq };
}

/** Same-args records with outcomes, newest back, while their resultHash equals the newest one's. */
export function noProgressStreak(h: RunHistory, args: number): Streak & { result: number } {
  let count = 0;
  let startSeq = -1;
  let result = 0;
  for (let i = 0; i < h.size; i++) {
    const s = h.slot(i);
    if (h.args(s) !== args || (h.flags(s) & RecordFlag.Outcome) === 0) continue;
    if (count === 0) result = h.result(s);
    else if (h.result(s) !== result) break;
    count++;
    startSeq = h.seq(s);
  }
  return { count, startSeq, result };
}

/** The newest contiguous prior records whose outcome is unknown-tool for this tool (pending ones skipped). */
export function unknownStreak(h: RunHistory, tool: number): Streak {
  let count = 0;
  let startSeq = -1;
  for (let i = 0; i < h.size; i++) {
    const s = h.slot(i);
    const flags = h.flags(s);
    if ((flags & RecordFlag.Outcome) === 0) continue;
    if (h.tool(s) !== tool || (flags & RecordFlag.UnknownTool) === 0) break;
    count++;
    startSeq = h.seq(s);
  }
  return { count, startSeq };
}

/** Same-tool records with outcomes, newest back, while they fail with the newest one's normalized error. */
export function errorStreak(h: RunHistory, tool: number): Streak & { error: number } {
  let count = 0;
  let startSeq = -1;
  let error = 0;
  for (let i = 0; i < h.size; i++) {
    const s = h.slot(i);
    const flags = h.flags(s);
    if (h.tool(s) !== tool || (flags & RecordFlag.Outcome) === 0) continue;
    const failed = (flags & RecordFlag.Error) !== 0 && (flags & RecordFlag.UnknownTool) === 0;
    if (count === 0) {
      if (!failed) break;
      error = h.error(s);
    } else if (!failed || h.error(s) !== error) break;
    count++;
    startSeq = h.seq(s);
  }
  return { count, startSeq, error };
}

export interface PingPong {
  count: number;
  startSeq: number;
  stable: boolean;
  otherArgs: number;
  lastArgs: number;
  lastTool: number;
}

/**
 * A-B-A-B alternation ending in the prior records, the new call being the next "other". A poll recorded
 * with masked args (RecordFlag.MaskedArgs) is no side: its exact args, a fresh poll id each time, never
 * repeated, so it ends the tail as it does upstream.
 */
export function pingPong(h: RunHistory, args: number): PingPong | null {
  if (h.size < 2) return null;
  const lastSlot = h.slot(0);
  if (h.masked(lastSlot)) return null;
  const lastArgs = h.args(lastSlot);
  let otherArgs = 0;
  let found = false;
  for (let i = 1; i < h.size; i++) {
    const a = h.args(h.slot(i));
    if (a !== lastArgs) {
      otherArgs = a;
      found = true;
      break;
    }
  }
  if (!found || args !== otherArgs) return null;
  let tail = 0;
  let startSeq = -1;
  let stable = true;
  let lastResult = 0;
  let otherResult = 0;
  for (let i = 0; i < h.size; i++) {
    const s = h.slot(i);
    const expected = i % 2 === 0 ? lastArgs : otherArgs;
    if (h.args(s) !== expected || h.masked(s)) break;
    tail++;
    startSeq = h.seq(s);
    if ((h.flags(s) & RecordFlag.Outcome) === 0) {
      stable = false;
      continue;
    }
    const r = h.result(s);
    if (i < 2) {
      if (i === 0) lastResult = r;
      else otherResult = r;
    } else if (r !== (i % 2 === 0 ? lastResult : otherResult)) stable = false;
  }
  if (tail < 2) return null;
  return { count: tail + 1, startSeq, stable, otherArgs, lastArgs, lastTool: h.tool(lastSlot) };
}

interface Match {
  detector: DetectorName;
  level: DeviationLevel;
  count: number;
  threshold: number;
  startSeq: number;
  key: string;
  evidence: Record<string, string | number | boolean>;
  message: string;
}

/** Runs the table over the prior history for a new call; returns at most one deviation. */
export function detectToolLoop(run: RunState, call: ToolCall, loop: PolicySettings['loop']): DeviationDraft | null {
  const match = firstMatch(run.history, call, loop, run.lastTool);
  if (!match) return null;
  if (!shouldReport(run, `${match.detector}|${match.level}|${match.key}`, match.count, match.threshold)) return null;
  return {
    detector: match.detector,
    level: match.level,
    count: match.count,
    atSeq: 0, // stamped by the engine
    loopStartSeq: Math.max(0, match.startSeq),
    evidence: match.evidence,
    message: match.message,
  };
}

interface Scan {
  recent: number;
  recentStart: number;
  noProgress: number;
  noProgressStart: number;
  noProgressResult: number;
  unknown: number;
  unknownStart: number;
  error: number;
  errorStart: number;
  errorHash: number;
  /** Newest consecutive failures of the same tool, whatever the errors (project rule P3). */
  failures: number;
  failuresStart: number;
}

/** recentCount, noProgressStreak, unknownStreak and errorStreak in one pass over the ring, newest first. */
function scan(h: RunHistory, tool: number, args: number): Scan {
  const out: Scan = { recent: 0, recentStart: -1, noProgress: 0, noProgressStart: -1, noProgressResult: 0, unknown: 0, unknownStart: -1, error: 0, errorStart: -1, errorHash: 0, failures: 0, failuresStart: -1 };
  const d = h.data;
  let npOpen = true;
  let unknownOpen = true;
  let errorOpen = true;
  let failuresOpen = true;
  let slot = h.head;
  for (let i = 0; i < h.size; i++) {
    slot = slot === 0 ? h.capacity - 1 : slot - 1;
    const o = slot * WORDS;
    const flags = d[o + 5] & FLAG_BITS;
    const hasOutcome = (flags & RecordFlag.Outcome) !== 0;
    const seq = d[o + 4];
    const sameTool = d[o] === tool;
    if (d[o + 1] === args) {
      out.recent++;
      out.recentStart = seq;
      if (npOpen && hasOutcome) {
        const r = d[o + 2];
        if (out.noProgress === 0) out.noProgressResult = r;
        if (r === out.noProgressResult) {
          out.noProgress++;
          out.noProgressStart = seq;
        } else npOpen = false;
      }
    }
    if (!hasOutcome) continue;
    if (unknownOpen) {
      if (sameTool && (flags & RecordFlag.UnknownTool) !== 0) {
        out.unknown++;
        out.unknownStart = seq;
      } else unknownOpen = false;
    }
    if (failuresOpen && sameTool) {
      if ((flags & RecordFlag.Error) !== 0 && (flags & RecordFlag.UnknownTool) === 0) {
        out.failures++;
        out.failuresStart = seq;
      } else failuresOpen = false;
    }
    if (errorOpen && sameTool) {
      const failed = (flags & RecordFlag.Error) !== 0 && (flags & RecordFlag.UnknownTool) === 0;
      if (out.error === 0) {
        if (failed) {
          out.errorHash = d[o + 3];
          out.error = 1;
          out.errorStart = seq;
        } else errorOpen = false;
      } else if (failed && d[o + 3] === out.errorHash) {
        out.error++;
        out.errorStart = seq;
      } else errorOpen = false;
    }
  }
  return out;
}

/** Cheap necessary condition for a ping-pong of `warning` calls ending with this one. */
function mayPingPong(h: RunHistory, args: number, recent: number, warning: number): boolean {
  if (h.size < 2 || h.size + 1 < warning || recent * 2 + 2 < warning) return false;
  return h.args(h.slot(1)) === args && h.args(h.slot(0)) !== args;
}

function firstMatch(h: RunHistory, call: ToolCall, loop: PolicySettings['loop'], lastTool: string): Match | null {
  if (h.size === 0) return null;
  const sc = scan(h, call.toolHash, call.argsHash);
  // The common case: nothing near any threshold (a ping-pong count is at most size + 1).
  if (
    sc.unknown < loop.unknownTool &&
    sc.noProgress < loop.globalBreaker &&
    sc.noProgress < loop.warning &&
    sc.noProgress < loop.critical &&
    sc.error < loop.errorRepeatWarning &&
    sc.failures < Math.max(loop.failureStreakWarning ?? Number.POSITIVE_INFINITY, loop.errorRepeatWarning) &&
    sc.recent < loop.warning &&
    !mayPingPong(h, call.argsHash, sc.recent, loop.warning)
  ) {
    return null;
  }
  const base = (): Record<string, string> => ({ tool: call.tool, argsHash: hashHex(call.argsHash) });
  if (sc.unknown >= loop.unknownTool) {
    return {
      detector: 'unknown_tool_repeat', level: 'critical', count: sc.unknown, threshold: loop.unknownTool,
      startSeq: sc.unknownStart, key: `tool:${call.toolHash}`, evidence: base(),
      message: `Tool "${call.tool}" does not exist and was called ${sc.unknown} times in a row; stop calling it and use an available tool.`,
    };
  }
  const np = sc.noProgress;
  const evidenceNp = () => ({ ...base(), resultHash: hashHex(sc.noProgressResult) });
  if (np >= loop.globalBreaker) {
    return {
      detector: 'global_circuit_breaker', level: 'critical', count: np, threshold: loop.globalBreaker,
      startSeq: sc.noProgressStart, key: hashHex(call.argsHash), evidence: evidenceNp(),
      message: `${np} identical calls to "${call.tool}" returned the same result; the circuit breaker stops this loop.`,
    };
  }
  if (call.isPoll && np >= loop.warning) {
    const critical = np >= loop.critical;
    return {
      detector: 'known_poll_no_progress', level: critical ? 'critical' : 'warning', count: np,
      threshold: critical ? loop.critical : loop.warning, startSeq: sc.noProgressStart, key: hashHex(call.argsHash), evidence: evidenceNp(),
      message: `Polled "${call.tool}" ${np} times with no change in its output; the status is not moving.`,
    };
  }
  // A ping-pong of `warning` calls needs at least warning − 1 prior records.
  const pp = h.size + 1 >= loop.warning && call.maskedArgs !== true ? pingPong(h, call.argsHash) : null;
  if (pp && pp.count >= loop.warning) {
    const critical = pp.count >= loop.critical && pp.stable;
    const pair = [pp.lastArgs, pp.otherArgs].map(hashHex).sort().join('/');
    return {
      detector: 'ping_pong', level: critical ? 'critical' : 'warning', count: pp.count,
      threshold: critical ? loop.critical : loop.warning, startSeq: pp.startSeq, key: pair,
      evidence: { ...base(), pairedTool: lastTool, pairedArgsHash: hashHex(pp.lastArgs), stable: pp.stable },
      message: `Alternating between "${call.tool}" and "${lastTool}" for ${pp.count} steps${pp.stable ? ' with the same outcomes each time' : ''}; neither side is making progress.`,
    };
  }
  if (!call.isPoll && np >= loop.critical) {
    return {
      detector: 'generic_repeat', level: 'critical', count: np, threshold: loop.critical,
      startSeq: sc.noProgressStart, key: hashHex(call.argsHash), evidence: evidenceNp(),
      message: `The same call to "${call.tool}" was made ${np} times with the same result; repeating it will not help.`,
    };
  }
  if (sc.error >= loop.errorRepeatWarning) {
    const critical = sc.error >= loop.errorRepeatCritical;
    return {
      detector: 'error_repeat', level: critical ? 'critical' : 'warning', count: sc.error,
      threshold: critical ? loop.errorRepeatCritical : loop.errorRepeatWarning, startSeq: sc.errorStart,
      key: `${call.toolHash}:${sc.errorHash}`, evidence: { ...base(), errorHash: hashHex(sc.errorHash) },
      message: `"${call.tool}" failed ${sc.error} times in a row with the same error; change the approach instead of retrying.`,
    };
  }
  // Project rule P3: the same tool failing again and again, whatever the errors and the args.
  // Never before the same-error rows would fire: any errors are weaker evidence than the same error.
  const failureWarning = Math.max(loop.failureStreakWarning ?? Number.POSITIVE_INFINITY, loop.errorRepeatWarning);
  if (sc.failures >= failureWarning) {
    const criticalAt = Math.max(loop.failureStreakCritical ?? Number.POSITIVE_INFINITY, loop.errorRepeatCritical);
    const critical = sc.failures >= criticalAt;
    return {
      detector: 'error_repeat', level: critical ? 'critical' : 'warning', count: sc.failures,
      threshold: critical ? criticalAt : failureWarning, startSeq: sc.failuresStart,
      key: `${call.toolHash}:any-error`, evidence: { ...base(), differentErrors: true },
      message: `"${call.tool}" failed ${sc.failures} times in a row (with changing arguments or errors); the approach itself is not working.`,
    };
  }
  if (!call.isPoll && sc.recent >= loop.warning) {
    return {
      detector: 'generic_repeat', level: 'warning', count: sc.recent, threshold: loop.warning,
      startSeq: sc.recentStart, key: hashHex(call.argsHash), evidence: base(),
      message: `"${call.tool}" was called ${sc.recent} times with the same arguments in the recent history.`,
    };
  }
  return null;
}
