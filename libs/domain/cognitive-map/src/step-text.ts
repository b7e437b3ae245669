/** The text a step contributes to matching (validators, similarity, anchor counting), bounded in size. */
import type { JsonValue, StepEvent } from '@wayfinder/contracts';

export type StepTextPart = 'action' | 'observation' | 'message';

/** Cap on text considered per step: matching never needs a whole 64 KiB observation. */
export const STEP_TEXT_CHARS = 8_000;

function jsonText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return '';
  }
}

/** Levels of args read by argsText: the step contract's own limit (contracts' isJsonValue), so a valid step is read whole. */
const MAX_ARGS_DEPTH = 64;

/**
 * Args as readable text: string values joined, so "query": "x y" reads as "x y", not JSON noise. Values
 * nested past MAX_ARGS_DEPTH are not read: args that never met the contract (5,000 levels) cannot overflow the stack.
 */
export function argsText(args: Record<string, JsonValue>): string {
  const parts: string[] = [];
  const walk = (v: JsonValue, depth: number) => {
    if (typeof v === 'string') parts.push(v);
    else if (typeof v === 'number' || typeof v === 'boolean') parts.push(String(v));
    else if (depth >= MAX_ARGS_DEPTH) return;
    else if (Array.isArray(v)) for (const item of v) walk(item, depth + 1);
    else if (v && typeof v === 'object') for (const item of Object.values(v)) walk(item, depth + 1);
  };
  walk(args, 0);
  return parts.join(' ');
}

/** Which part of a step a text came from, and the text. Milestone, feedback, compaction: none. */
export function stepText(step: StepEvent, max = STEP_TEXT_CHARS): { part: StepTextPart; text: string } | undefined {
  switch (step.kind) {
    case 'action':
      return { part: 'action', text: `${step.action.tool} ${argsText(step.action.args)}`.slice(0, max) };
    case 'observation': {
      const o = step.observation;
      return { part: 'observation', text: `${jsonText(o.content)} ${o.error ?? ''}`.trim().slice(0, max) };
    }
    case 'message':
      return { part: 'message', text: step.message.text.slice(0, max) };
    case 'plan':
      return { part: 'message', text: step.plan.subgoals.map((s) => s.text).join('\n').slice(0, max) };
    default:
      return undefined;
  }
}
