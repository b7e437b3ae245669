/** The fleet of one tenant now (pure, over agents' summaries and histories): counts per state, self-heal per rung, top detectors. */
import type { CorrectionAction, DetectorName } from '@wayfinder/contracts';
import { AGENT_STATES, type AgentState, type AgentSummary, type CorrectionStory } from './agent-story';
import type { HistoryRecord } from './history-record';

export interface RungHealRate {
  readonly healed: number;
  readonly resolved: number;
  /** healed ÷ resolved; null when none resolved. */
  readonly rate: number | null;
}

export interface DetectorCount {
  readonly detector: DetectorName;
  readonly deviations: number;
  readonly falsePositives: number;
  /** Share of this detector's deviations that operators marked false positives. */
  readonly falsePositiveShare: number;
}

export interface FleetView {
  readonly tenantId: string;
  readonly agents: number;
  readonly states: Record<AgentState, number>;
  readonly selfHealByRung: Partial<Record<CorrectionAction, RungHealRate>>;
  readonly topDetectors: readonly DetectorCount[];
  readonly openEscalations: number;
}

export interface AgentFacts {
  readonly summary: AgentSummary;
  readonly stories: readonly CorrectionStory[];
  readonly history: readonly HistoryRecord[];
}

export function fleetViewOf(tenantId: string, agents: readonly AgentFacts[], topN = 5): FleetView {
  const states = Object.fromEntries(AGENT_STATES.map((s) => [s, 0])) as Record<AgentState, number>;
  const heal: Partial<Record<CorrectionAction, { healed: number; resolved: number }>> = {};
  const detectors = new Map<DetectorName, { deviations: number; falsePositives: number }>();
  let openEscalations = 0;
  for (const { summary, stories, history } of agents) {
    states[summary.state]++;
    if (summary.state === 'frozen') openEscalations++;
    for (const story of stories) {
      if (story.outcome === 'pending' || story.correction.action === 'freeze') continue;
      const rung = (heal[story.correction.action] ??= { healed: 0, resolved: 0 });
      rung.resolved++;
      if (story.outcome === 'recovered') rung.healed++;
    }
    const marked = new Set(history.filter((r) => r.kind === 'false-positive').map((r) => (r.kind === 'false-positive' ? r.deviationId : '')));
    for (const r of history) {
      if (r.kind !== 'deviation') continue;
      const d = detectors.get(r.detector) ?? { deviations: 0, falsePositives: 0 };
      d.deviations++;
      if (marked.has(r.deviationId)) d.falsePositives++;
      detectors.set(r.detector, d);
    }
  }
  const selfHealByRung: Partial<Record<CorrectionAction, RungHealRate>> = {};
  for (const [rung, h] of Object.entries(heal) as Array<[CorrectionAction, { healed: number; resolved: number }]>) {
    selfHealByRung[rung] = { ...h, rate: h.resolved === 0 ? null : h.healed / h.resolved };
  }
  const topDetectors = [...detectors.entries()]
    .map(([detector, d]) => ({ detector, ...d, falsePositiveShare: d.deviations === 0 ? 0 : d.falsePositives / d.deviations }))
    .sort((a, b) => b.deviations - a.deviations || (a.detector < b.detector ? -1 : 1))
    .slice(0, topN);
  return { tenantId, agents: agents.length, states, selfHealByRung, topDetectors, openEscalations };
}

/**
 * Every detector's deviations in `records` and how many of them operators marked false positives (the
 * `false-positive` records among them), with the share: the metric `wayfinder.false_positive.share`.
 */
export function falsePositiveShares(records: readonly HistoryRecord[]): DetectorCount[] {
  const marked = new Set<string>();
  for (const r of records) if (r.kind === 'false-positive') marked.add(r.deviationId);
  const detectors = new Map<DetectorName, { deviations: number; falsePositives: number }>();
  for (const r of records) {
    if (r.kind !== 'deviation') continue;
    const d = detectors.get(r.detector) ?? { deviations: 0, falsePositives: 0 };
    d.deviations++;
    if (marked.has(r.deviationId)) d.falsePositives++;
    detectors.set(r.detector, d);
  }
  return [...detectors.entries()]
    .map(([detector, d]) => ({ detector, ...d, falsePositiveShare: d.deviations === 0 ? 0 : d.falsePositives / d.deviations }))
    .sort((a, b) => (a.detector < b.detector ? -1 : a.detector > b.detector ? 1 : 0));
}
