/** `budget` (DESIGN §5.3): steps, tokens or cost of a run past 80% (warning) and 100% (critical) of the budget. */
import type { PolicySettings } from '@wayfinder/contracts';
import type { RunState } from '../state/run-state';
import type { DeviationDraft } from '../types';

const METRICS = ['steps', 'tokens', 'costUsd'] as const;
const NONE: DeviationDraft[] = [];

export function detectBudget(run: RunState, settings: PolicySettings['budget'], maxSteps: number | undefined): DeviationDraft[] {
  const stepLimit = maxSteps ?? settings.maxSteps;
  if (stepLimit === undefined && settings.maxTokens === undefined && settings.maxCostUsd === undefined) return NONE;
  const limits = { steps: stepLimit, tokens: settings.maxTokens, costUsd: settings.maxCostUsd };
  const used = { steps: run.steps, tokens: run.tokens, costUsd: run.costUsd };
  const out: DeviationDraft[] = [];
  METRICS.forEach((metric, i) => {
    const limit = limits[metric];
    if (limit === undefined || !(limit > 0)) return;
    const ratio = used[metric] / limit;
    const criticalBit = 1 << (i * 2 + 1);
    const warningBit = 1 << (i * 2);
    let level: 'warning' | 'critical' | null = null;
    if (ratio >= 1 && (run.budgetReported & criticalBit) === 0) level = 'critical';
    else if (ratio >= settings.warningRatio && ratio < 1 && (run.budgetReported & warningBit) === 0) level = 'warning';
    if (!level) return;
    run.budgetReported |= level === 'critical' ? criticalBit | warningBit : warningBit;
    out.push({
      detector: 'budget', level, count: Math.round(ratio * 1000) / 1000, atSeq: 0, loopStartSeq: 0,
      evidence: { metric, used: Math.round(used[metric] * 1e6) / 1e6, limit },
      message: `${metric} at ${Math.round(ratio * 100)}% of the budget (${round(used[metric])} of ${limit}).`,
    });
  });
  return out;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
