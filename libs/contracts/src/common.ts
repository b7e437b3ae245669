/** Building blocks shared by every v1 event: envelope fields, ids, timestamps. */
import { z } from 'zod';
import { MAX_ID_LENGTH } from './limits';

export const Id = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`);

export const IsoTimestamp = z.string().datetime({ offset: true, message: 'must be an ISO-8601 date-time' });

/** Fields every event carries (DESIGN §4). `schema` is fixed per event type. */
export function envelope<S extends string>(schema: S) {
  return {
    schema: z.literal(schema),
    eventId: Id,
    tenantId: Id,
    ts: IsoTimestamp,
  };
}

/** A JSON value: what tool args, observation content and attributes may hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/**
 * Checked by hand rather than as a recursive zod union: every step on every hop carries JSON values, and
 * a union tried member by member at every depth costs more than the rest of the event's validation.
 */
export const JsonValue: z.ZodType<JsonValue> = z.custom<JsonValue>((value) => isJsonValue(value, 0), {
  fatal: true,
  message: 'must be a JSON value (string, finite number, boolean, null, array or object), at most 64 levels deep',
}).describe('any JSON value: string, number, boolean, null, array or object') as unknown as z.ZodType<JsonValue>;

const MAX_JSON_DEPTH = 64;

export function isJsonValue(value: unknown, depth: number): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (depth >= MAX_JSON_DEPTH) return false;
      if (Array.isArray(value)) {
        for (const item of value) if (!isJsonValue(item, depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in value) if (!isJsonValue((value as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}
