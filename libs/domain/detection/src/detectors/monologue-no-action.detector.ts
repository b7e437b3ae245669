/**
 * `monologue` for messages that differ (PROJECT-RULES.md P6): consecutive assistant messages with no
 * action between them, whatever they say, past `monologue.noActionWarning`. An action or a user message
 * ends the run of messages. The near-identical monologue (upstream rule) is judged first; this one adds a
 * deviation only when that one did not fire on the same message.
 */
import type { PolicySettings } from '@wayfinder/contracts';
import { preview } from '../evidence/preview';
import { shouldReport } from '../state/dedup';
import { More, type RunState } from '../state/run-state';
import type { DeviationDraft } from '../types';

/** An action or a user message: the assistant is no longer talking to itself. */
export function endSilentMessages(run: RunState): void {
  run.data[run.moreOffset + More.SilentMessages] = 0;
}

export function countSilentMessage(run: RunState, seq: number): number {
  const d = run.data;
  const o = run.moreOffset;
  if (d[o + More.SilentMessages] === 0) d[o + More.SilentStartSeq] = seq;
  return ++d[o + More.SilentMessages];
}

export function detectNoActionMonologue(run: RunState, count: number, text: string, settings: PolicySettings['monologue']): DeviationDraft | null {
  const warning = settings.noActionWarning;
  if (warning === undefined || count < warning) return null;
  const criticalAt = settings.noActionCritical ?? Number.POSITIVE_INFINITY;
  const critical = count >= criticalAt;
  const level = critical ? 'critical' : 'warning';
  const start = run.data[run.moreOffset + More.SilentStartSeq];
  if (!shouldReport(run, `monologue|${level}|no-action|${start}`, count, critical ? criticalAt : warning)) return null;
  return {
    detector: 'monologue',
    level,
    count,
    atSeq: 0,
    loopStartSeq: start,
    evidence: { kind: 'no-action', messages: count, lastMessagePreview: preview(text) },
    message: `${count} messages in a row without any action: stop planning aloud and take the next concrete step.`,
  };
}
