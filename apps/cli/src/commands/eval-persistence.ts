/**
 * `wayfinder eval persistence PATH…` (DESIGN §9): scores goal persistence of the runs in StepEvent JSONL
 * files or folders (the trail-dev layout included) against their cognitive map. A run is one agent on one
 * task in one file (sub-agent runIds of a trace belong to it). The map comes from, in order: --task, --goal,
 * a `wayfinder.task.v1` line of the file for that task, the run's first user message, or else its first
 * message of any role (traces converted without the user's prompt). Each file is read twice: once for its
 * goals, once through navigation (localization, detection, corrections), so no file is held in memory.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parsePayload, type StepEvent, type TaskSpec, type CognitiveMap } from '@wayfinder/contracts';
import { parseTask } from '@wayfinder/cognitive-map';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { GoalPersistence, persistenceCurveSvg, type GoalPersistenceReport } from '@wayfinder/evaluation';
import { createNavigator } from '@wayfinder/navigation';
import { UsageError, type CommandIo } from '../command';
import { InvalidLineReporter } from './invalid-line-reporter';
import { LineWriter } from './jsonl-writer';
import { prepareNavigation } from './navigation-setup';
import { listStepFiles } from './step-files';
import { readStepFile } from './step-lines';


type GoalSource = 'task-option' | 'goal-option' | 'task-line' | 'first-user-message' | 'first-message';

export interface PersistenceArgs {
  paths: string[];
  task?: string;
  goal?: string;
  format?: string;
  curve?: string;
  policy?: string;
  profile?: string;
}

interface RunState {
  file: string;
  tenantId: string;
  agentId: string;
  taskId: string;
  goalSource: GoalSource;
  map: CognitiveMap;
  tracker: GoalPersistence;
}

const MAX_GOAL_CHARS = 4_000;

export async function runEvalPersistence(args: PersistenceArgs, io: CommandIo): Promise<number> {
  if (args.paths.length === 0) throw new UsageError('persistence needs at least one PATH (a StepEvent JSONL file or folder)');
  if (args.task !== undefined && args.goal !== undefined) throw new UsageError('give --task or --goal, not both');
  if (args.goal !== undefined && args.goal.trim() === '') throw new UsageError('--goal must not be empty');
  const format = args.format ?? 'json';
  if (format !== 'json' && format !== 'table') throw new UsageError(`--format must be json or table; got '${format}'`);
  if (args.curve === '') throw new UsageError('--curve needs a folder');
  const given = args.task !== undefined ? await readTaskFile(args.task) : undefined;
  if (given) {
    const parsed = parseTask(given);
    if (!parsed.ok) throw new UsageError(`--task ${args.task}: ${parsed.error.message}`);
  }
  const setup = await prepareNavigation({ policyFile: args.policy, profile: args.profile, corrections: true });
  const files = await listStepFiles(args.paths);
  if (args.curve) await fs.mkdir(args.curve, { recursive: true });
  const embedder = new HashingEmbedder();
  const invalid = new InvalidLineReporter(io.stderr, 'wayfinder eval');
  const reports: Array<{ run: RunState; report: GoalPersistenceReport }> = [];
  const curveNames = new Set<string>();

  for (const file of files) {
    const goals = await goalsOf(file);
    const navigator = createNavigator({ policy: setup.policy, embedder, corrections: true });
    const runs = new Map<string, RunState>();
    const runOf = (step: StepEvent): RunState => {
      const key = `${step.tenantId}\u0000${step.agentId}\u0000${step.taskId}`;
      let run = runs.get(key);
      if (!run) {
        let { spec, source } = specFor(step, goals, given, args.goal);
        let parsed = parseTask(spec);
        if (!parsed.ok && source === 'task-line') {
          // A task line that cannot become a map is reported like a bad line; the run is scored on its messages.
          invalid.report(file, goals.taskLines.get(`${step.tenantId}\u0000${step.taskId}`) ?? 0, `task ${spec.taskId}: ${parsed.error.message}; scored on the run's messages instead`);
          goals.tasks.delete(`${step.tenantId}\u0000${step.taskId}`);
          ({ spec, source } = specFor(step, goals, given, args.goal));
          parsed = parseTask(spec);
        }
        if (!parsed.ok) throw new Error(`${file}: task ${spec.taskId}: ${parsed.error.message}`);
        navigator.setMap(step.tenantId, parsed.value);
        run = { file, tenantId: step.tenantId, agentId: step.agentId, taskId: step.taskId, goalSource: source, map: parsed.value, tracker: new GoalPersistence(parsed.value, { embedder }) };
        runs.set(key, run);
      }
      return run;
    };
    await readStepFile(file, {
      onStep(step) {
        const run = runOf(step);
        const result = navigator.onStep(step);
        const position = result.localized;
        run.tracker.onStep(step, {
          deviations: result.deviations,
          corrections: result.corrections,
          milestoneId: position?.milestoneId ?? null,
          ...(position && position.method !== 'unknown' ? { progress: position.progress } : {}),
        });
        for (const heal of result.selfHeals) run.tracker.onSelfHeal(heal);
      },
      onInvalid: (f, line, error) => invalid.report(f, line, error),
      // Task lines were read in the first pass; the map is installed when the run's first step arrives.
      onTask: () => undefined,
    });
    invalid.endFile(file);
    for (const run of runs.values()) {
      const report = run.tracker.report();
      reports.push({ run, report });
      if (args.curve) {
        const name = uniqueName(`${safeName(run.agentId)}`, curveNames);
        await fs.writeFile(path.join(args.curve, name), persistenceCurveSvg(report.curve, { title: `${run.agentId} · ${path.basename(file)}` }));
      }
    }
  }

  const rows = reports.map(({ run, report }) => runRow(run, report));
  const summary = summarize(reports.map((r) => r.report), invalid.total);
  const out = new LineWriter(io.stdout);
  try {
    if (format === 'json') {
      for (const row of rows) await out.json(row);
      await out.json({ summary });
    } else {
      await out.line(table(rows));
      await out.line(summaryLine(summary));
    }
    await out.flush();
  } catch (error) {
    // The reader of stdout went away (`… | head`): stop quietly, as replay does.
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') return 0;
    throw error;
  }
  return 0;
}

function runRow(run: RunState, report: GoalPersistenceReport) {
  const { curve: _curve, ...scores } = report;
  return {
    file: run.file,
    tenantId: run.tenantId,
    agentId: run.agentId,
    taskId: run.taskId,
    goalSource: run.goalSource,
    milestones: run.map.milestones.length,
    anchorCount: run.map.anchors.length,
    ...scores,
  };
}

export interface PersistenceSummary {
  runs: number;
  runsWithAnchors: number;
  anchorRecall: number | null;
  trajectoryConsistency: number | null;
  ruleCoverage: number | null;
  deviations: number;
  meanReturnLength: number | null;
  selfHealRate: number | null;
  invalidLines: number;
}

function summarize(reports: GoalPersistenceReport[], invalidLines: number): PersistenceSummary {
  const withAnchors = reports.filter((r) => r.anchorRecall !== null);
  const returned = reports.reduce((n, r) => n + r.returned, 0);
  const returnSteps = reports.reduce((n, r) => n + (r.meanReturnLength ?? 0) * r.returned, 0);
  let healed = 0;
  let resolved = 0;
  for (const r of reports) {
    for (const h of Object.values(r.selfHealByRung)) {
      healed += h?.healed ?? 0;
      resolved += h?.resolved ?? 0;
    }
  }
  return {
    runs: reports.length,
    runsWithAnchors: withAnchors.length,
    anchorRecall: mean(withAnchors.map((r) => r.anchorRecall as number)),
    trajectoryConsistency: mean(reports.map((r) => r.trajectoryConsistency)),
    ruleCoverage: mean(reports.map((r) => r.ruleCoverage)),
    deviations: reports.reduce((n, r) => n + r.deviations, 0),
    meanReturnLength: returned === 0 ? null : round(returnSteps / returned),
    selfHealRate: resolved === 0 ? null : round(healed / resolved),
    invalidLines,
  };
}

function table(rows: ReturnType<typeof runRow>[]): string {
  const head = ['agent', 'source', 'steps', 'anchors', 'recall', 'consist.', 'rules', 'devs', 'return', 'heal'];
  const body = rows.map((r) => [
    r.agentId.slice(0, 24),
    r.goalSource,
    String(r.steps),
    String(r.anchorCount),
    fmt(r.anchorRecall),
    fmt(r.trajectoryConsistency),
    fmt(r.ruleCoverage),
    String(r.deviations),
    fmt(r.meanReturnLength),
    fmt(r.selfHealRate),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  return [head, ...body].map((row) => row.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()).join('\n');
}

function summaryLine(s: PersistenceSummary): string {
  return `summary: ${s.runs} runs (${s.runsWithAnchors} with anchors), anchor recall ${fmt(s.anchorRecall)}, consistency ${fmt(s.trajectoryConsistency)}, rule coverage ${fmt(s.ruleCoverage)}, deviations ${s.deviations}, mean return ${fmt(s.meanReturnLength)}, self-heal ${fmt(s.selfHealRate)}`;
}

interface FileGoals {
  tasks: Map<string, TaskSpec>;
  /** Line of each task line, for reporting one that cannot become a map. */
  taskLines: Map<string, number>;
  firstUser: Map<string, string>;
  firstMessage: Map<string, string>;
}

/** First pass over a file: its task lines, and each run's first user message and first message. */
async function goalsOf(file: string): Promise<FileGoals> {
  const goals: FileGoals = { tasks: new Map(), taskLines: new Map(), firstUser: new Map(), firstMessage: new Map() };
  await readStepFile(file, {
    onStep(step) {
      if (step.kind !== 'message' || step.message.text.trim() === '') return;
      const key = runKey(step);
      if (!goals.firstMessage.has(key)) goals.firstMessage.set(key, step.message.text.slice(0, MAX_GOAL_CHARS));
      if (step.message.role === 'user' && !goals.firstUser.has(key)) goals.firstUser.set(key, step.message.text.slice(0, MAX_GOAL_CHARS));
    },
    onInvalid: () => undefined, // reported in the second pass
    onTask(task, _file, line) {
      goals.tasks.set(`${task.tenantId}\u0000${task.taskId}`, task);
      goals.taskLines.set(`${task.tenantId}\u0000${task.taskId}`, line);
    },
  });
  return goals;
}

function runKey(step: StepEvent): string {
  return `${step.tenantId}\u0000${step.agentId}\u0000${step.taskId}`;
}

function specFor(step: StepEvent, goals: FileGoals, given: TaskSpec | undefined, goal: string | undefined): { spec: TaskSpec; source: GoalSource } {
  const base = { schema: 'wayfinder.task.v1' as const, eventId: `eval:${step.taskId}`, tenantId: step.tenantId, ts: step.ts, taskId: step.taskId };
  if (given) return { spec: { ...given, tenantId: step.tenantId, taskId: step.taskId }, source: 'task-option' };
  if (goal !== undefined) return { spec: { ...base, goal }, source: 'goal-option' };
  const line = goals.tasks.get(`${step.tenantId}\u0000${step.taskId}`);
  if (line) return { spec: line, source: 'task-line' };
  const user = goals.firstUser.get(runKey(step));
  if (user) return { spec: { ...base, goal: user }, source: 'first-user-message' };
  const first = goals.firstMessage.get(runKey(step));
  // No message at all: the task id is the only words there are; such a run has no anchors.
  return { spec: { ...base, goal: first ?? step.taskId }, source: 'first-message' };
}

async function readTaskFile(file: string): Promise<TaskSpec> {
  let raw: unknown;
  try {
    raw = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--task ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : (error as Error).message.split('\n')[0]}`);
  }
  const parsed = parsePayload('wayfinder.tasks.v1', raw);
  if (!parsed.ok) throw new UsageError(`--task ${file}: ${parsed.error}`);
  return parsed.value;
}

function uniqueName(base: string, used: Set<string>): string {
  let name = `${base}.svg`;
  for (let k = 2; used.has(name); k++) name = `${base}-${k}.svg`;
  used.add(name);
  return name;
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120);
}

function mean(values: number[]): number | null {
  return values.length === 0 ? null : round(values.reduce((a, b) => a + b, 0) / values.length);
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

function fmt(v: number | null): string {
  return v === null ? '–' : v.toFixed(2);
}
