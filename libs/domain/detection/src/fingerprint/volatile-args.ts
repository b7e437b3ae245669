/**
 * Args with their volatile ids masked (PROJECT-RULES.md P11): what a call asks for, without what names
 * the request. A chat poll that sends a fresh poll id each time, a request stamped with the time, a nonce:
 * the same call once masked. Works on the canonical JSON of the args (keys sorted), so it costs a few
 * linear regex passes and no second walk of the args. Used only to compare a call with the previous call
 * of its tool, and only the result decides that nothing new came back (the chain of repeats, P1).
 */

/** Keys that name a request rather than a target (compared lower-cased, `_` and `-` removed). */
const VOLATILE_KEY =
  /"(?:poll[_-]?id|request[_-]?id|client[_-]?request[_-]?id|correlation[_-]?id|idempotency[_-]?key|nonce|trace[_-]?id|span[_-]?id|cache[_-]?buster|timestamp|ts|sent[_-]?at|requested[_-]?at)":("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?)/gi;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const ISO_TIME = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
/** Epoch seconds or milliseconds as a JSON number (2001–2286). */
const EPOCH = /(?<=[:[,])1\d{9}(?:\d{3})?(?=[,}\]])/g;

export function maskVolatileArgs(argsJson: string): string {
  if (argsJson.length < 8) return argsJson;
  return argsJson.replace(VOLATILE_KEY, (_m, value: string) => `${_m.slice(0, _m.length - value.length)}"<v>"`).replace(UUID, '<uuid>').replace(ISO_TIME, '<time>').replace(EPOCH, '0');
}
