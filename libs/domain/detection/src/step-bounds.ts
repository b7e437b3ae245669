/**
 * Per-step bounds on what detection reads (issue #29, "no input can hold the event loop"). The step
 * contract already caps a step's args and texts at 64 KiB, but a step at those caps still cost ~25 ms of
 * detection (7,000 argument keys), and a step that never met the contract (the engine used as a library:
 * the doors and consumers validate) could nest its args thousands deep and overflow the stack of a recursive walk. The engine reads every
 * step through `boundedStep`: at most `maxArgNodes` argument values, `maxArgDepth` levels and
 * `maxArgChars` characters of argument strings; at most `maxTextChars` of a message, plan, feedback,
 * compaction or milestone text; at most `maxOutputChars` of an observation's content and error. What lies
 * past a bound is left out of detection only: the step itself (history, correction, replay input) is
 * unchanged.
 *
 * Why bounds and not a time budget: a bound is a function of the step and the operator's settings, so
 * the same step gives the same detection on every replay and after every restart (DESIGN §5: replay =
 * production). A wall-clock budget would make a decision depend on how busy the machine was.
 *
 * Cost of the bounds: two calls that differ only past a bound (the 1,001st key, the 40,000th character of
 * a message) look alike to the detectors. Only a step far beyond what agents send is cut, and only its own
 * agent's detection sees the cut.
 */
import type { JsonValue, StepEvent } from '@wayfinder/contracts';

export interface StepBounds {
  /** Argument values (objects, arrays and leaves) read from one action's args. */
  readonly maxArgNodes: number;
  /** Levels of nesting read in args and JSON observation content; deeper values read as '<deep>'. */
  readonly maxArgDepth: number;
  /** Characters of argument strings and keys read from one action (all together). */
  readonly maxArgChars: number;
  /** Characters read of a message, plan (all subgoals together), feedback, compaction or milestone text. */
  readonly maxTextChars: number;
  /** Characters read of an observation's content (all its strings together) and, apart, of its error. */
  readonly maxOutputChars: number;
}

export const DEFAULT_STEP_BOUNDS: StepBounds = { maxArgNodes: 1_000, maxArgDepth: 32, maxArgChars: 16_384, maxTextChars: 32_768, maxOutputChars: 16_384 };

/** The operator's environment variable of each bound. */
export const STEP_BOUND_ENV: Record<keyof StepBounds, string> = {
  maxArgNodes: 'WAYFINDER_DETECTION_MAX_ARG_NODES',
  maxArgDepth: 'WAYFINDER_DETECTION_MAX_ARG_DEPTH',
  maxArgChars: 'WAYFINDER_DETECTION_MAX_ARG_CHARS',
  maxTextChars: 'WAYFINDER_DETECTION_MAX_TEXT_CHARS',
  maxOutputChars: 'WAYFINDER_DETECTION_MAX_OUTPUT_CHARS',
};

/** What the value stands for past `maxArgDepth` (as fingerprint/normalize.ts writes a value past its depth). */
const DEEP = '<deep>';

/** The work detection may do on a step's JSON, spent as it is read. */
interface Allowance {
  nodes: number;
  chars: number;
}

/** Detection's work on a step: argument values and characters read, within the bounds. */
export interface StepWork {
  work: number;
}

/**
 * The step as detection reads it: the same object when it is within the bounds (the common case costs
 * one walk and no copy), else a copy cut to them. Deterministic: the result depends on the step and the
 * bounds only. `measure.work` gets the work the step gives detection (deterministic too: the per-tenant
 * `wayfinder.detection.work` metric).
 */
export function boundedStep(step: StepEvent, bounds: StepBounds = DEFAULT_STEP_BOUNDS, measure: StepWork = { work: 0 }): StepEvent {
  measure.work = 0;
  switch (step.kind) {
    case 'action': {
      const args = step.action?.args;
      if (!args || typeof args !== 'object') return step;
      const allowance = { nodes: bounds.maxArgNodes, chars: bounds.maxArgChars };
      if (withinJson(args, bounds.maxArgDepth, allowance, 0)) {
        measure.work = spent(allowance, bounds.maxArgNodes, bounds.maxArgChars);
        return step;
      }
      const read = { nodes: bounds.maxArgNodes, chars: bounds.maxArgChars };
      const cut = boundJson(args, bounds.maxArgDepth, read, 0);
      measure.work = spent(read, bounds.maxArgNodes, bounds.maxArgChars);
      return { ...step, action: { ...step.action, args: (cut && typeof cut === 'object' && !Array.isArray(cut) ? cut : {}) as Record<string, JsonValue> } };
    }
    case 'observation': {
      const body = step.observation;
      if (!body || typeof body !== 'object') return step;
      const error = typeof body.error === 'string' ? body.error : '';
      const errorLong = error.length > bounds.maxOutputChars;
      const content = body.content;
      const allowance = { nodes: bounds.maxArgNodes, chars: bounds.maxOutputChars };
      const contentLong = content !== undefined && content !== null && !withinJson(content, bounds.maxArgDepth, allowance, 0);
      const read = { nodes: bounds.maxArgNodes, chars: bounds.maxOutputChars };
      const cutContent = contentLong ? (boundJson(content, bounds.maxArgDepth, read, 0) as JsonValue) : undefined;
      measure.work = spent(contentLong ? read : allowance, bounds.maxArgNodes, bounds.maxOutputChars) + Math.min(error.length, bounds.maxOutputChars);
      if (!errorLong && !contentLong) return step;
      return {
        ...step,
        observation: {
          ...body,
          ...(contentLong && { content: cutContent }),
          ...(errorLong && { error: error.slice(0, bounds.maxOutputChars) }),
        },
      };
    }
    case 'message':
      if (!longText(step.message?.text, bounds, measure)) return step;
      return { ...step, message: { ...step.message, text: step.message.text.slice(0, bounds.maxTextChars) } };
    case 'feedback':
      if (!longText(step.feedback?.text, bounds, measure)) return step;
      return { ...step, feedback: { ...step.feedback, text: step.feedback.text.slice(0, bounds.maxTextChars) } };
    case 'compaction':
      if (!longText(step.compaction?.reason, bounds, measure)) return step;
      return { ...step, compaction: { ...step.compaction, reason: step.compaction.reason.slice(0, bounds.maxTextChars) } };
    case 'milestone':
      if (!longText(step.milestone?.evidence, bounds, measure)) return step;
      return { ...step, milestone: { ...step.milestone, evidence: (step.milestone.evidence as string).slice(0, bounds.maxTextChars) } };
    case 'plan': {
      const subgoals = step.plan?.subgoals;
      if (!Array.isArray(subgoals)) return step;
      let total = 0;
      for (const subgoal of subgoals) total += typeof subgoal?.text === 'string' ? subgoal.text.length : 0;
      measure.work = Math.min(total, bounds.maxTextChars);
      if (total <= bounds.maxTextChars) return step;
      // The subgoals in order, sharing the characters: the later ones read as empty once they are spent.
      let left = bounds.maxTextChars;
      const cut = subgoals.map((subgoal) => {
        const text = typeof subgoal?.text === 'string' ? subgoal.text.slice(0, left) : '';
        left -= text.length;
        return { ...subgoal, text };
      });
      return { ...step, plan: { ...step.plan, subgoals: cut } };
    }
    default:
      return step;
  }
}

/** The allowance spent (a walk stopped at an excess counts the whole bound). */
function spent(allowance: Allowance, nodes: number, chars: number): number {
  return Math.min(nodes, nodes - allowance.nodes) + Math.min(chars, chars - allowance.chars);
}

/** Whether the text is past `maxTextChars`; its characters read go to `measure`. */
function longText(text: unknown, bounds: StepBounds, measure: StepWork): boolean {
  if (typeof text !== 'string') return false;
  measure.work = Math.min(text.length, bounds.maxTextChars);
  return text.length > bounds.maxTextChars;
}

/** Whether the value lies within the depth and the allowance (spent while it looks); stops at the first excess. */
function withinJson(value: unknown, depthLeft: number, allowance: Allowance, depth: number): boolean {
  if (--allowance.nodes < 0) return false;
  if (typeof value === 'string') return (allowance.chars -= value.length) >= 0;
  if (value === null || typeof value !== 'object') return true;
  if (depth >= depthLeft) return false;
  if (Array.isArray(value)) {
    if (value.length > allowance.nodes) {
      allowance.nodes = -1;
      return false;
    }
    for (const item of value) if (!withinJson(item, depthLeft, allowance, depth + 1)) return false;
    return true;
  }
  // Object.keys: own keys only, one array (for-in over a large dictionary-mode object costs more per key).
  const keys = Object.keys(value);
  if (keys.length > allowance.nodes) {
    allowance.nodes = -1; // past the bound whatever the values: not walked
    return false;
  }
  for (let i = 0; i < keys.length; i++) {
    allowance.chars -= keys[i].length;
    if (!withinJson((value as Record<string, unknown>)[keys[i]], depthLeft, allowance, depth + 1)) return false;
  }
  return true;
}

/**
 * A copy of the value within the bounds: values read in document order until the allowance is spent;
 * an object or array past `maxDepth` reads as '<deep>'; a string is cut to the characters left. The walk
 * recurses at most `maxDepth` levels, so no nesting overflows the stack.
 */
function boundJson(value: unknown, maxDepth: number, allowance: Allowance, depth: number): unknown {
  allowance.nodes--;
  if (typeof value === 'string') {
    const text = value.length > allowance.chars ? value.slice(0, Math.max(0, allowance.chars)) : value;
    allowance.chars -= text.length;
    return text;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= maxDepth) return DEEP;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      if (allowance.nodes <= 0) break;
      out.push(boundJson(item, maxDepth, allowance, depth + 1));
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length && allowance.nodes > 0 && allowance.chars > 0; i++) {
    const key = keys[i];
    allowance.chars -= key.length;
    const read = boundJson((value as Record<string, unknown>)[key], maxDepth, allowance, depth + 1);
    // A '__proto__' key of parsed JSON stays a key, as JSON.parse made it, not a prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: read, enumerable: true, writable: true, configurable: true });
    else out[key] = read;
  }
  return out;
}
