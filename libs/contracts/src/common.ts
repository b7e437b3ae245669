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
export const JsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonValue), z.record(JsonValue)]),
);
