/** `wayfinder map`: parses a goal or a TaskSpec into a cognitive map and prints it (DESIGN §5.1, §11). */
import { readFileSync } from 'node:fs';
import { compileConstraints, constraintCoverage, parseTask, renderGoalBoard, topologicalOrder, type ConstraintRule } from '@wayfinder/cognitive-map';
import { TASK_SCHEMA, TaskSpec, formatZodError, type CognitiveMap, type Validator } from '@wayfinder/contracts';
import { parseCommandArgs } from '../args';
import { UsageError, type Command, type CommandIo } from '../command';
import { mapHelp } from './map.help';

export const mapCommand: Command = {
  ...mapHelp,
  async run(argv: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, {
      goal: { type: 'string' },
      'goal-file': { type: 'string' },
      task: { type: 'string' },
      format: { type: 'string' },
    }, false);
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const sources = ['goal', 'goal-file', 'task'].filter((k) => values[k as keyof typeof values] !== undefined);
    if (sources.length !== 1) throw new UsageError('give exactly one of --goal, --goal-file, --task');
    const format = (values.format as string | undefined) ?? 'json';
    if (format !== 'json' && format !== 'text') throw new UsageError(`--format must be json or text, got '${format}'`);

    const spec = readSpec(values as Record<string, string | undefined>);
    const result = parseTask(spec);
    if (!result.ok) {
      io.stderr.write(`wayfinder map: ${result.error.code}: ${result.error.message}\n`);
      return 1;
    }
    io.stdout.write(format === 'json' ? JSON.stringify(result.value, null, 2) + '\n' : renderOutline(result.value));
    return 0;
  },
};

function readSpec(values: Record<string, string | undefined>): TaskSpec {
  const base = { schema: TASK_SCHEMA, eventId: 'cli', tenantId: 'cli', ts: new Date().toISOString(), taskId: 'cli-task' };
  let raw: unknown;
  if (values.goal !== undefined) raw = { ...base, goal: values.goal };
  else if (values['goal-file'] !== undefined) raw = { ...base, goal: readText(values['goal-file']) };
  else {
    try {
      raw = { ...base, ...JSON.parse(readText(values.task!)) };
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`--task ${values.task}: not JSON (${(error as Error).message})`);
    }
  }
  const parsed = TaskSpec.safeParse(raw);
  if (!parsed.success) throw new UsageError(`invalid task: ${formatZodError(parsed.error)}`);
  return parsed.data;
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

function renderOutline(map: CognitiveMap): string {
  const byId = new Map(map.milestones.map((m) => [m.id, m]));
  const lines = [renderGoalBoard(map), '', 'MILESTONES:'];
  topologicalOrder(map.milestones).forEach((id, i) => {
    const m = byId.get(id)!;
    const deps = m.dependsOn.length ? ` (after ${m.dependsOn.join(', ')})` : '';
    lines.push(`  ${i + 1}. [${m.id}] ${m.description}${deps}`);
    lines.push(`     done when: ${describeValidator(m.validator)}`);
  });
  lines.push(...constraintChecks(map));
  return lines.join('\n') + '\n';
}

/** How each hard constraint is checked (rule, embedder fallback, or not at all), with the shares. */
function constraintChecks(map: CognitiveMap): string[] {
  const compiled = compileConstraints(map.constraints).filter((c) => c.hard);
  if (compiled.length === 0) return [];
  const share = constraintCoverage(compiled);
  const lines = ['', `CONSTRAINT CHECKS (rules ${share.rule}, embedder ${share.embedder}, unchecked ${share.unchecked}):`];
  for (const c of compiled) {
    const how = c.rules.length > 0 ? c.rules.map(describeRule).join('; ') : c.prohibition ? 'embedder similarity (no rule applies)' : 'not checked (an obligation no rule covers)';
    lines.push(`  ${c.number}. [${c.constraintId}] ${how}`);
  }
  return lines;
}

function describeRule(r: ConstraintRule): string {
  switch (r.kind) {
    case 'forbiddenTool':
      return `no ${r.category ?? ''}${r.category ? ' tools' : 'tools'}${r.object ? ` on ${r.object}s` : ''}${r.names ? ` (${r.names.join(', ')})` : ''}`.replace(/^no tools \(/, 'never call (');
    case 'protectedResource':
      return `never write ${[...r.paths, ...(r.inputs ? ['the input files it read'] : [])].join(', ')}`;
    case 'outputFormat':
      return `final output is ${r.format === 'json' ? 'JSON' : 'a Markdown table'}`;
    case 'fieldFormat':
      return `field ${r.field} is a ${r.format}`;
    case 'countBound':
      return `at most ${r.max} ${r.category ?? 'tool'} calls`;
  }
}

function describeValidator(v: Validator): string {
  switch (v.type) {
    case 'marker':
      return `the agent signals milestone ${v.milestoneId ?? '(this one)'}`;
    case 'regex':
      return `text matches /${v.pattern}/${v.flags ?? ''}${v.on ? ` in ${v.on}` : ''}`;
    case 'jsonField':
      return `JSON field ${v.path}${v.equals !== undefined ? ` = ${JSON.stringify(v.equals)}` : ' exists'}`;
    case 'toolSucceeded':
      return `tool ${v.tool} succeeds`;
    case 'anchorCount':
      return `anchor ${v.anchorId} reaches ${v.atLeast ?? 'its target'}`;
    case 'all':
      return v.of.map(describeValidator).join(' and ');
    case 'any':
      return v.of.map(describeValidator).join(' or ');
  }
}
