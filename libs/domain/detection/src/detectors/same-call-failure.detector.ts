/**
 * `error_repeat` for the same call failing again and again (PROJECT-RULES.md P10): OpenHands' "action,
 * error" loop. The very same call (tool and args) made back to back keeps failing, whatever the errors say
 * (a command that is not found, then "another error", then a third wording). Judged at the observation, over
 * the run's history: stateless. The upstream rows need the same error, P3 four failures of the tool; an
 * identical call that fails three times in a row is no retry any more.
 */
import type { PolicySettings } from '@wayfinder/contracts';
import { hashHex } from '../fingerprint/hash';
import { shouldReport } from '../state/dedup';
import { RecordFlag } from '../state/run-history';
import type { RunState } from '../state/run-state';
import type { DeviationDraft } from '../types';

/**
 * The deviation for the call recorded at `slot`, which has just failed. The chain is the newest records of
 * the run, this one first, while each is the same call and failed (unknown-tool outcomes are
 * unknown_tool_repeat's); any other record (another call, a success, a call still pending) ends it.
 * A retryable error (a timeout, a 503) is not judged: retrying it is right (P1), the upstream rows count it.
 */
export function detectSameCallFailure(run: RunState, tool: string, slot: number, retryable: boolean, loop: PolicySettings['loop']): DeviationDraft | null {
  if (loop.sameCallFailureWarning === undefined || retryable) return null;
  // Like P3, never before the upstream error rows would: a tenant that raised errorRepeatWarning asked for calm.
  const warning = Math.max(loop.sameCallFailureWarning, loop.errorRepeatWarning);
  const h = run.history;
  if (h.size === 0 || h.slot(0) !== slot) return null;
  const args = h.args(slot);
  const error = h.error(slot);
  let sameError = true;
  let count = 0;
  let start = h.seq(slot);
  for (let i = 0; i < h.size; i++) {
    const s = h.slot(i);
    const flags = h.flags(s);
    if (h.args(s) !== args || (flags & (RecordFlag.Outcome | RecordFlag.Error)) !== (RecordFlag.Outcome | RecordFlag.Error) || (flags & RecordFlag.UnknownTool) !== 0) break;
    count++;
    start = h.seq(s);
    if (h.error(s) !== error) sameError = false;
  }
  if (count < warning) return null;
  const criticalAt = Math.max(loop.sameCallFailureCritical ?? Number.POSITIVE_INFINITY, loop.errorRepeatCritical);
  const critical = count >= criticalAt;
  const level = critical ? 'critical' : 'warning';
  if (!shouldReport(run, `error_repeat|${level}|same-call:${hashHex(args)}:${start}`, count, critical ? criticalAt : warning)) return null;
  return {
    detector: 'error_repeat',
    level,
    count,
    atSeq: 0,
    loopStartSeq: start,
    evidence: { tool, argsHash: hashHex(args), sameCall: true, failures: count, sameError },
    message: `The same "${tool}" call failed ${count} times in a row${sameError ? ' with the same error' : ''}; repeating it unchanged will fail again — read the error and change the call or the approach.`,
  };
}
