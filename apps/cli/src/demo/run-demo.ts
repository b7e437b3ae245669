/**
 * `wayfinder demo` end to end: a seeded fleet of a few hundred agents over several tenants, the whole
 * pipeline embedded, a live view while it runs, an HTML report at the end, and optionally the run's
 * metrics as JSON (through @wayfinder/telemetry's file exporter, fed by the services' own metrics).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { startTelemetry, type Telemetry } from '@wayfinder/telemetry';
import { resolvePolicy } from '@wayfinder/detection';
import { SimulatedFleet } from '@wayfinder/testing';
import { FleetPersistence } from './fleet-persistence';
import { summarize, type DemoSummary } from './demo-summary';
import { runFleetThroughPipeline } from './fleet-pipeline-run';
import { renderHtmlReport } from './html-report';
import { LiveView } from './live-view';

export interface DemoOptions {
  agents: number;
  durationS: number;
  seed: number;
  reportPath: string;
  metricsFile?: string;
  out: NodeJS.WritableStream;
  tty: boolean;
}

export interface DemoResult {
  summary: DemoSummary;
  reportPath: string;
  elapsedMs: number;
}

/**
 * Rounds per second: small fleets take more rounds per second so a short demo still shows loops being
 * caught and corrected; large fleets fewer, so the pipeline keeps up on a laptop. A pure function of the
 * arguments: the number of rounds, and so the summary, never depends on the machine's speed.
 */
export function roundsPerSecond(agents: number): number {
  return Math.max(8, Math.min(40, Math.round(1200 / agents)));
}

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const rps = roundsPerSecond(options.agents);
  const rounds = Math.max(1, Math.ceil(options.durationS * rps));
  // Agents answer what a correction says (recovery-model.ts): the healing figures are drawn, not given.
  const fleet = new SimulatedFleet({ seed: options.seed, agents: options.agents, failureRate: 0.3, agentsPerTask: 4, stagger: Math.floor(rounds / 10), recovery: 'content' });
  const persistence = new FleetPersistence(fleet.tasks(), resolvePolicy().correction.selfHealWindow);
  // Telemetry first: the services' handlers pick up the global meter when Nest builds them.
  let telemetry: Telemetry | undefined;
  if (options.metricsFile) {
    // The file is rewritten at each export; every 5 s keeps it current during a demo (the SDK's default is 60 s).
    const env = { ...process.env };
    if (!env['OTEL_METRIC_EXPORT_INTERVAL']) {
      env['OTEL_METRIC_EXPORT_INTERVAL'] = '5000';
      env['OTEL_METRIC_EXPORT_TIMEOUT'] ??= '5000';
    }
    telemetry = startTelemetry({ serviceName: 'wayfinder-demo', metricsFile: options.metricsFile, env });
  }
  const view = new LiveView({ out: options.out, tty: options.tty, title: `wayfinder demo · seed ${options.seed} · ${options.agents} agents · ${fleet.tenants.length} tenants`, totalRounds: rounds });
  const startMs = Date.now();
  const run = await runFleetThroughPipeline(fleet, {
    rounds,
    roundMs: 1000 / rps,
    startMs,
    observe: (round) => persistence.observe(round),
    onRound: (report) => {
      const truth = fleet.groundTruth();
      const failures = { started: truth.filter((f) => f.startSeq !== null).length, recovered: truth.filter((f) => f.recoveredAtSeq !== null).length };
      view.update(report, fleet.countByState(), failures, report.round === rounds - 1 || fleet.settled);
    },
  });
  const summary = summarize(options.seed, fleet, run);
  const html = renderHtmlReport({
    summary,
    agents: fleet.agentRecords(),
    deviations: run.deviations,
    corrections: run.corrections,
    effects: run.effects,
    persistence: (tenantId, agentId) => persistence.of(tenantId, agentId)?.report,
    generatedAt: new Date().toISOString(),
    elapsedMs: run.elapsedMs,
  });
  writeFile(options.reportPath, html);
  if (options.metricsFile) {
    if (telemetry?.enabled) await telemetry.shutdown();
    // Telemetry turned off (OTEL_SDK_DISABLED): the demo's own counters still make the file.
    else writeFile(options.metricsFile, JSON.stringify({ source: 'wayfinder demo summary (telemetry disabled)', summary }, null, 2) + '\n');
  }
  return { summary, reportPath: options.reportPath, elapsedMs: run.elapsedMs };
}

function writeFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** The closing lines of the demo: the seeded numbers, one fact per line. */
export function summaryLines(s: DemoSummary): string[] {
  const actions = Object.entries(s.correctionsByAction).map(([k, v]) => `${k} ${v}`).join(', ');
  const heal = s.selfHeal.rate === null ? 'n/a' : `${s.selfHeal.rate} (${s.selfHeal.healed}/${s.selfHeal.healed + s.selfHeal.failed})`;
  return [
    `fleet      ${s.agents} agents, ${s.tenants} tenants, ${s.rounds} rounds, ${s.steps} steps; done ${s.agentsByState.done}, frozen ${s.agentsByState.frozen}, still working ${s.agents - s.agentsByState.done - s.agentsByState.frozen}`,
    `failures   injected ${s.injected}, started ${s.started}, detected ${s.detected}, corrected ${s.corrected}, healed ${s.healed}, escalated ${s.escalated}`,
    `healthy    flagged ${s.healthyFlagged}, corrected ${s.healthyCorrected}`,
    `navigation deviations ${s.deviations}, corrections ${s.corrections}${actions ? ` (${actions})` : ''}, escalations ${s.escalations}, self-heal rate ${heal}`,
    ...s.byTenant.map((t) => `tenant     ${t.tenantId} (${t.label}): detected ${t.detected}/${t.started}, mean steps to detect ${t.meanStepsToDetect ?? '–'}, healed ${t.healed}, escalated ${t.escalated}`),
  ];
}
