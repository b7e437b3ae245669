/**
 * Declarative validators evaluated against one step (DESIGN §5.1). Small and cheap on purpose: no
 * validator throws, a bad regex is simply false, and counts come from the anchor tallies. Tenants' regexes
 * run with RE2 semantics (safe-pattern.ts): linear time, so no pattern can stall a shared worker.
 */
import type { JsonValue, StepEvent, Validator } from '@wayfinder/contracts';
import { compileSafePattern, type SafePattern } from './safe-pattern';
import { stepText } from './step-text';

export interface ValidatorContext {
  /** The milestone the validator belongs to: a `marker` without its own id refers to it. */
  milestoneId?: string;
  /** Current anchor counts by anchor id (see anchor-progress). */
  anchorCounts?: Readonly<Record<string, number>>;
  /** Anchor targets by id, for `anchorCount` without an explicit `atLeast`. */
  anchorTargets?: Readonly<Record<string, number>>;
}

const regexCache = new Map<string, SafePattern | null>();
const REGEX_CACHE_MAX = 1024;

function compile(pattern: string, flags = ''): SafePattern | null {
  const key = `${flags}/${pattern}`;
  let re = regexCache.get(key);
  if (re === undefined) {
    const compiled = compileSafePattern(pattern, flags);
    re = compiled.ok ? compiled.pattern : null;
    if (regexCache.size >= REGEX_CACHE_MAX) regexCache.clear();
    regexCache.set(key, re);
  }
  return re;
}

function jsonOf(step: StepEvent): JsonValue | undefined {
  let raw: JsonValue | undefined;
  if (step.kind === 'observation') raw = step.observation.content;
  else if (step.kind === 'message') raw = step.message.text;
  else if (step.kind === 'action') return step.action.args;
  if (typeof raw !== 'string') return raw;
  const trimmed = raw.trim();
  if (!/^[[{]/.test(trimmed)) return undefined;
  try {
    return JSON.parse(trimmed) as JsonValue;
  } catch {
    return undefined;
  }
}

/** Reads "a.b[0].c" or "a.b.0.c"; undefined when any segment is missing. */
export function readPath(value: JsonValue | undefined, path: string): JsonValue | undefined {
  let cur: JsonValue | undefined = value;
  for (const key of path.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = Array.isArray(cur) ? cur[Number(key)] : cur[key];
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Whether the step satisfies the validator. */
export function evaluateValidator(validator: Validator, step: StepEvent, ctx: ValidatorContext = {}): boolean {
  switch (validator.type) {
    case 'marker': {
      const id = validator.milestoneId ?? ctx.milestoneId;
      return step.kind === 'milestone' && step.milestone.status === 'done' && id !== undefined && step.milestone.id === id;
    }
    case 'regex': {
      const st = stepText(step);
      if (!st) return false;
      const on = validator.on ?? 'any';
      if (on !== 'any' && on !== st.part) return false;
      const re = compile(validator.pattern, validator.flags);
      return re !== null && re.test(st.text);
    }
    case 'jsonField': {
      const found = readPath(jsonOf(step), validator.path);
      if (validator.equals !== undefined) return found === validator.equals;
      return validator.exists === false ? found === undefined : found !== undefined;
    }
    case 'toolSucceeded':
      return step.kind === 'observation' && step.observation.ok && step.observation.tool === validator.tool;
    case 'anchorCount': {
      const count = ctx.anchorCounts?.[validator.anchorId];
      const target = validator.atLeast ?? ctx.anchorTargets?.[validator.anchorId];
      return count !== undefined && target !== undefined && count >= target;
    }
    case 'all':
      return validator.of.every((v) => evaluateValidator(v, step, ctx));
    case 'any':
      return validator.of.some((v) => evaluateValidator(v, step, ctx));
  }
}
