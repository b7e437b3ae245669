/**
 * `stagnation` (DESIGN §5.3): no milestone progress for M actions (checked at each action) or for
 * factor × expectedStepMs of wall-clock time (checked by the engine's timer through `tick`).
 */
import type { PolicySettings, Position } from '@wayfinder/contracts';
import { shouldReport } from '../state/dedup';
import type { RunState } from '../state/run-state';
import type { DeviationDraft } from '../types';

export function markProgress(run: RunState, seq: number, nowMs: number): void {
  run.actionsSinceProgress = 0;
  run.progressStartSeq = seq;
  run.lastProgressMs = nowMs;
  run.timeReported = 0;
  if (run.reported) for (const key of [...run.reported.keys()]) if (key.startsWith('stagnation|')) run.reported.delete(key);
}

/** A localized position counts as progress when it moved forward (more completed, or further along). */
export function positionMovedForward(run: RunState, position: Position): boolean {
  const key = `${position.completed.length}:${position.milestoneId ?? ''}:${Math.floor(position.progress * 100)}`;
  if (run.progressKey === '') {
    run.progressKey = key;
    return false;
  }
  const [prevCompleted, , prevProgress] = run.progressKey.split(':');
  const forward =
    position.completed.length > Number(prevCompleted) ||
    (position.completed.length === Number(prevCompleted) && Math.floor(position.progress * 100) > Number(prevProgress));
  run.progressKey = key;
  return forward;
}

export function detectStepStagnation(run: RunState, seq: number, settings: PolicySettings['stagnation']): DeviationDraft | null {
  const count = run.actionsSinceProgress;
  if (count === 0) run.progressStartSeq = seq;
  run.actionsSinceProgress++;
  if (count < settings.warningSteps) return null;
  const critical = count >= settings.criticalSteps;
  const level = critical ? 'critical' : 'warning';
  if (!shouldReport(run, `stagnation|${level}`, count, critical ? settings.criticalSteps : settings.warningSteps)) return null;
  return {
    detector: 'stagnation', level, count, atSeq: 0, loopStartSeq: run.progressStartSeq,
    evidence: { kind: 'steps', threshold: critical ? settings.criticalSteps : settings.warningSteps },
    message: `${count} actions since the last milestone progress; the agent is busy but not advancing.`,
  };
}

export function detectTimeStagnation(
  run: RunState,
  nowMs: number,
  expectedStepMs: number,
  settings: Pick<PolicySettings['stagnation'], 'warningFactor' | 'criticalFactor'>,
): DeviationDraft | null {
  const lastProgressMs = run.lastProgressMs;
  if (lastProgressMs === null || !Number.isFinite(lastProgressMs) || !(expectedStepMs > 0)) return null;
  const idle = nowMs - lastProgressMs;
  const factor = idle / expectedStepMs;
  let level: 'warning' | 'critical' | null = null;
  if (factor >= settings.criticalFactor && run.timeReported < 2) level = 'critical';
  else if (factor >= settings.warningFactor && run.timeReported < 1) level = 'warning';
  if (!level) return null;
  run.timeReported = level === 'critical' ? 2 : 1;
  return {
    detector: 'stagnation', level, count: Math.floor(factor * 10) / 10, atSeq: Math.max(0, run.lastSeq),
    loopStartSeq: run.progressStartSeq,
    evidence: { kind: 'time', idleMs: idle, expectedStepMs },
    message: `No milestone progress for ${Math.round(idle / 1000)} s, ${factor.toFixed(1)}× the expected step time.`,
  };
}
