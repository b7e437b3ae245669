/**
 * The one encoding of composite in-memory keys (issue 14, DESIGN §7): each part length-prefixed, so no
 * ids, whatever characters they hold (':', '%', NUL, '{'), can make two different tuples meet, and the
 * key of a tuple is a prefix of the keys of its extensions (tenant+task of tenant+task+agent). Redis keys
 * use `tenantKey` of @wayfinder/redis (tenant first, parts percent-encoded); Kafka message keys stay
 * `tenantId:agentId` (they only choose a partition).
 */
export function compositeKey(...parts: readonly string[]): string {
  let key = '';
  for (const part of parts) key += `${part.length}:${part}`;
  return key;
}
