/**
 * TaskSpec → CognitiveMap (DESIGN §5.1). Explicit milestones win over the goal text; explicit anchors
 * and constraints come first, then those found in the goal. The map is version 1 and carries the
 * task's envelope, so parsing the same task twice yields the same map.
 */
import { MAP_SCHEMA, type Anchor, type CognitiveMap, type Milestone, type TaskSpec } from '@wayfinder/contracts';
import { extractConstraintTexts, numberConstraints } from './constraints';
import { defaultValidator, parseGoal } from './goal-parser';
import { stableId } from './ids';
import { validateMap } from './map-validation';
import { compileSafePattern } from './safe-pattern';
import { err, ok, type MapError, type Result } from './result';

/** Deterministic event id of a map version: re-publishing the same version is idempotent downstream. */
export function mapEventId(taskId: string, version: number): string {
  return `map:${taskId}:v${version}`.slice(0, 128);
}

function mergeAnchors(explicit: readonly Anchor[], parsed: readonly Anchor[]): Anchor[] {
  const out = [...explicit];
  for (const a of parsed) {
    if (out.some((o) => o.target === a.target && o.unit === a.unit)) continue;
    const id = out.some((o) => o.id === a.id) ? stableId('a', out.length + 1, `${a.unit}${a.target}`) : a.id;
    out.push({ ...a, id });
  }
  return out;
}

function targetStateOf(goal: string, milestones: readonly Milestone[], anchors: readonly Anchor[]): string {
  const last = milestones[milestones.length - 1]?.description ?? goal;
  const counts = anchors.map((a) => `${a.comparator === 'atMost' ? '≤' : a.comparator === 'exactly' ? '=' : '≥'}${a.target} ${a.unit}`);
  const text = counts.length > 0 ? `${last} (${counts.join(', ')})` : last;
  return text.slice(0, 2048);
}

/** Parses a task into its cognitive map, or a typed error naming the offending milestone ids. */
export function parseTask(spec: TaskSpec): Result<CognitiveMap, MapError> {
  const parsed = parseGoal(spec.goal);
  const anchors = mergeAnchors(spec.anchors ?? [], parsed.anchors);

  let milestones: Milestone[];
  if (spec.milestones && spec.milestones.length > 0) {
    milestones = spec.milestones.map((m) => ({
      id: m.id,
      description: m.description,
      dependsOn: [...(m.dependsOn ?? [])],
      validator: m.validator ?? defaultValidator(m.id, m.description, anchors),
    }));
  } else {
    // Validators are rebuilt against the merged anchors: a goal anchor may have given way to an explicit one.
    milestones = parsed.milestones.map((m) => ({ ...m, validator: defaultValidator(m.id, m.description, anchors) }));
  }
  const valid = validateMap(milestones);
  if (!valid.ok) return err(valid.error);

  const unsafe = milestones.flatMap((m) => regexProblems(m.validator).map((problem) => ({ id: m.id, problem })));
  if (unsafe.length > 0) {
    return err({ code: 'invalid_spec', ids: [...new Set(unsafe.map((u) => u.id))], message: `validator regex of milestone ${unsafe[0].id}: ${unsafe[0].problem}` });
  }

  const anchorIds = new Set(anchors.map((a) => a.id));
  const badAnchorRefs = milestones.filter((m) => referencedAnchors(m.validator).some((id) => !anchorIds.has(id)));
  if (badAnchorRefs.length > 0) {
    const ids = badAnchorRefs.map((m) => m.id);
    return err({ code: 'invalid_spec', ids, message: `validators reference unknown anchors in milestones: ${ids.join(', ')}` });
  }

  const taskConstraints = numberConstraints(spec.constraints ?? [], 'task');
  const constraints = numberConstraints(extractConstraintTexts(spec.goal), 'goal', taskConstraints);
  return ok({
    schema: MAP_SCHEMA,
    eventId: mapEventId(spec.taskId, 1),
    tenantId: spec.tenantId,
    ts: spec.ts,
    taskId: spec.taskId,
    version: 1,
    goal: spec.goal,
    targetState: targetStateOf(spec.goal, milestones, anchors),
    milestones,
    anchors,
    constraints,
    ...(spec.maxSteps !== undefined ? { maxSteps: spec.maxSteps } : {}),
    ...(spec.expectedStepMs !== undefined ? { expectedStepMs: spec.expectedStepMs } : {}),
  });
}

/** Why each regex of a validator cannot run safely (RE2 cannot compile it), if any. */
function regexProblems(v: Milestone['validator']): string[] {
  if (v.type === 'regex') {
    const compiled = compileSafePattern(v.pattern, v.flags);
    return compiled.ok ? [] : [compiled.error];
  }
  if (v.type === 'all' || v.type === 'any') return v.of.flatMap(regexProblems);
  return [];
}

function referencedAnchors(v: Milestone['validator']): string[] {
  if (v.type === 'anchorCount') return [v.anchorId];
  if (v.type === 'all' || v.type === 'any') return v.of.flatMap(referencedAnchors);
  return [];
}
