/**
 * MapStore on Redis: one JSON document per (tenant, task), written only when its version is newer than
 * the stored one (checked atomically in a script, so two task-parsers cannot regress a map).
 */
import type { Redis } from 'ioredis';
import type { MapStore } from '@wayfinder/cognitive-map';
import { CognitiveMap } from '@wayfinder/contracts';
import { tenantKey } from './keys';

const PUT_IF_NEWER = `
local current = redis.call('HGET', KEYS[1], 'version')
if current and tonumber(current) > tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'map', ARGV[2])
if tonumber(ARGV[3]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1
`;

export interface RedisMapStoreOptions {
  /** Maps of tasks nobody touched for this long expire (ms; 0 keeps them). Default 7 days. */
  ttlMs?: number;
  /** Separates deployments sharing one Redis (the topic prefix). */
  namespace?: string;
}

/** The MapStore port of @wayfinder/cognitive-map; the version rule (`mapReplaces`) in the script. */
export class RedisMapStore implements MapStore {
  private readonly ttlMs: number;
  private readonly namespace: string;

  constructor(
    private readonly redis: Redis,
    options: RedisMapStoreOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 7 * 24 * 60 * 60 * 1000;
    this.namespace = options.namespace ?? '';
  }

  private keyOf(tenantId: string, taskId: string): string {
    return this.namespace ? tenantKey(tenantId, 'map', this.namespace, taskId) : tenantKey(tenantId, 'map', taskId);
  }

  async get(tenantId: string, taskId: string): Promise<CognitiveMap | undefined> {
    const json = await this.redis.hget(this.keyOf(tenantId, taskId), 'map');
    if (!json) return undefined;
    const parsed = CognitiveMap.safeParse(JSON.parse(json));
    // A document that no longer parses (written by an incompatible version) is treated as absent.
    return parsed.success && parsed.data.tenantId === tenantId ? parsed.data : undefined;
  }

  async put(map: CognitiveMap): Promise<boolean> {
    const stored = await this.redis.eval(PUT_IF_NEWER, 1, this.keyOf(map.tenantId, map.taskId), map.version, JSON.stringify(map), this.ttlMs);
    return stored === 1;
  }
}
