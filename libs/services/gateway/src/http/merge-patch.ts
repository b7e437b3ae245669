/**
 * JSON Merge Patch (RFC 7396), as `PATCH /v1/policy` applies it: a patch object merges into the target
 * member by member, a `null` member deletes, anything that is not an object (arrays included) replaces.
 * Neither argument is modified. Keys are copied as own data properties, so a `__proto__` member of a
 * parsed body stays a member (refused later by the schema) and never becomes the result's prototype.
 */

export type JsonObject = { [key: string]: unknown };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return patch;
  const result: JsonObject = {};
  if (isJsonObject(target)) for (const [key, value] of Object.entries(target)) define(result, key, value);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else define(result, key, mergePatch(Object.prototype.hasOwnProperty.call(result, key) ? result[key] : undefined, value));
  }
  return result;
}

function define(object: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}
