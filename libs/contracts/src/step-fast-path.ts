/**
 * A hand-written check of the common step events (issue #17): zod's StepEvent parse costs about three
 * JSON round trips per step, and every step of the fleet goes through it where it enters the pipeline.
 * `fastStepEvent` accepts a value only when it can tell, field by field, that the schema accepts it AND
 * returns it unchanged (no unknown keys to strip, no default to fill, no text to truncate); then the value
 * itself is the parsed step. Anything else — another kind, a doubtful field, any error — returns undefined
 * and the caller runs the zod schema, which gives the same result and the field-naming error as before.
 * step-fast-path-equals-schema.spec.ts checks, on generated values both valid and broken, that whatever
 * this accepts the schema accepts with an identical output, and that it accepts the common steps.
 */
import { isJsonValue } from './common';
import { MAX_ARGS_BYTES, MAX_ID_LENGTH, MAX_TEXT_BYTES } from './limits';
import type { StepEvent } from './step';

// zod 3's `z.string().datetime({ offset: true })` (datetimeRegex with precision unset, local false), built once.
const DATE = `((\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-((0[13578]|1[02])-(0[1-9]|[12]\\d|3[01])|(0[469]|11)-(0[1-9]|[12]\\d|30)|(02)-(0[1-9]|1\\d|2[0-8])))`;
const TIME = `([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d+)?)?`;
const ISO_TIMESTAMP = new RegExp(`^${DATE}T${TIME}(Z|([+-]\\d{2}:?\\d{2}))$`);

const BASE_KEYS = new Set(['schema', 'eventId', 'tenantId', 'ts', 'agentId', 'taskId', 'runId', 'seq', 'usage', 'kind']);
const BODY_KEYS: Record<string, ReadonlySet<string>> = {
  action: new Set(['tool', 'args', 'callId']),
  observation: new Set(['callId', 'tool', 'ok', 'content', 'error', 'errorCode', 'status']),
  message: new Set(['role', 'text', 'type']),
  milestone: new Set(['id', 'status', 'evidence']),
  feedback: new Set(['text']),
  compaction: new Set(['reason']),
};
const USAGE_KEYS = new Set(['inputTokens', 'outputTokens', 'costUsd', 'latencyMs']);
const ROLES = new Set(['assistant', 'user', 'system', 'tool']);
const MESSAGE_TYPES = new Set(['thought', 'output']);
const MILESTONE_STATUSES = new Set(['started', 'done', 'failed']);

type Obj = Record<string, unknown>;

function plain(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** Own keys all known, none `__proto__`, none holding undefined (zod would keep or drop it: not our call). */
function onlyKeys(value: Obj, allowed: ReadonlySet<string>): boolean {
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key) || !allowed.has(key) || value[key] === undefined) return false;
  }
  return !Object.prototype.hasOwnProperty.call(value, '__proto__');
}

function id(value: unknown): boolean {
  return typeof value === 'string' && value.length >= 1 && value.length <= MAX_ID_LENGTH;
}

/** A text the schema keeps as it is (truncateText returns it unchanged below this length). */
function text(value: unknown): boolean {
  return typeof value === 'string' && value.length * 3 <= MAX_TEXT_BYTES;
}

function optional(value: unknown, check: (v: unknown) => boolean): boolean {
  return value === undefined || check(value);
}

function nonNegative(value: unknown, integer: boolean): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && (!integer || Number.isInteger(value));
}

/** An upper bound of the bytes of JSON.stringify(value) (a JSON value): \uXXXX is the longest escape. */
function jsonBytesAtMost(value: unknown, budget: number): boolean {
  let left = budget;
  const walk = (v: unknown): boolean => {
    if (typeof v === 'string') left -= 2 + 6 * v.length;
    else if (typeof v === 'number') left -= 25;
    else if (v === null || typeof v === 'boolean') left -= 5;
    else if (Array.isArray(v)) {
      left -= 2;
      for (const item of v) if (!walk(item) || (left -= 1) < 0) return false;
    } else {
      left -= 2;
      for (const key in v as Obj) {
        left -= 3 + 6 * key.length;
        if (left < 0 || !walk((v as Obj)[key])) return false;
      }
    }
    return left >= 0;
  };
  return walk(value);
}

function body(kind: string, b: unknown): boolean {
  const keys = BODY_KEYS[kind];
  if (!keys || !plain(b) || !onlyKeys(b, keys)) return false;
  switch (kind) {
    case 'action': {
      // args absent would be filled with {} by the schema: not unchanged.
      const args = b['args'];
      if (!id(b['tool']) || !optional(b['callId'], id) || !plain(args) || Object.prototype.hasOwnProperty.call(args, '__proto__')) return false;
      for (const key in args) if (!Object.prototype.hasOwnProperty.call(args, key) || !isJsonValue(args[key], 0)) return false;
      return jsonBytesAtMost(args, MAX_ARGS_BYTES);
    }
    case 'observation': {
      if (!id(b['tool']) || typeof b['ok'] !== 'boolean' || !optional(b['callId'], id) || !optional(b['error'], text)) return false;
      const code = b['errorCode'];
      if (code !== undefined && !(typeof code === 'string' && code.length <= 128)) return false;
      const status = b['status'];
      if (status !== undefined && !(typeof status === 'string' ? status.length <= 128 : typeof status === 'number' && Number.isFinite(status))) return false;
      const content = b['content'];
      if (content === undefined || typeof content === 'string') return optional(content, text);
      return isJsonValue(content, 0) && jsonBytesAtMost(content, MAX_TEXT_BYTES);
    }
    case 'message':
      return ROLES.has(b['role'] as string) && text(b['text']) && (b['type'] === undefined || MESSAGE_TYPES.has(b['type'] as string));
    case 'milestone':
      return id(b['id']) && MILESTONE_STATUSES.has(b['status'] as string) && optional(b['evidence'], text);
    case 'feedback':
      return text(b['text']);
    case 'compaction':
      return text(b['reason']);
    default:
      return false;
  }
}

/** The value as a StepEvent when the schema surely accepts it unchanged; undefined: ask the schema. */
export function fastStepEvent(raw: unknown): StepEvent | undefined {
  if (!plain(raw)) return undefined;
  const kind = raw['kind'];
  if (typeof kind !== 'string' || !(kind in BODY_KEYS)) return undefined;
  for (const key in raw) {
    if (!Object.prototype.hasOwnProperty.call(raw, key) || raw[key] === undefined || (!BASE_KEYS.has(key) && key !== kind)) return undefined;
  }
  if (Object.prototype.hasOwnProperty.call(raw, '__proto__')) return undefined;
  if (raw['schema'] !== 'wayfinder.step.v1' || !id(raw['eventId']) || !id(raw['tenantId']) || !id(raw['agentId']) || !id(raw['taskId'])) return undefined;
  if (typeof raw['ts'] !== 'string' || !ISO_TIMESTAMP.test(raw['ts'])) return undefined;
  if (!nonNegative(raw['seq'], true)) return undefined;
  const runId = raw['runId'];
  if (runId !== undefined && runId !== null && !id(runId)) return undefined;
  const usage = raw['usage'];
  if (usage !== undefined) {
    if (!plain(usage) || !onlyKeys(usage, USAGE_KEYS)) return undefined;
    if (!optional(usage['inputTokens'], (v) => nonNegative(v, true)) || !optional(usage['outputTokens'], (v) => nonNegative(v, true))) return undefined;
    if (!optional(usage['costUsd'], (v) => nonNegative(v, false)) || !optional(usage['latencyMs'], (v) => nonNegative(v, false))) return undefined;
  }
  return body(kind, raw[kind]) ? (raw as StepEvent) : undefined;
}
