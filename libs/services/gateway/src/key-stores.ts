/**
 * Which KeyStore, CorrectionLog and StepSeqs a mode uses: embedded → `.wayfinder/keys.json` under the
 * working directory, an in-memory log and seqs; distributed → Redis, namespaced by the topic prefix. Shared by the
 * runtime and `wayfinder keys`.
 */
import type Redis from 'ioredis';
import type { WayfinderConfig } from '@wayfinder/config';
import { FileKeyStore, keysFilePath } from '@wayfinder/file-stores';
import { RedisCorrectionLog, RedisKeyStore, RedisStepSeqs } from '@wayfinder/redis';
import { InMemoryCorrectionLog, InMemoryStepSeqs, isLoopbackHost, parseApiKeysVariable, TenantAuthenticator, type CorrectionLog, type KeyStore, type StepSeqs } from '@wayfinder/tenancy';

type ModeConfig = Pick<WayfinderConfig, 'mode' | 'topicPrefix' | 'workingDir'>;

export function keyStoreFor(config: ModeConfig, redis?: Redis): KeyStore {
  if (config.mode === 'embedded') return new FileKeyStore(keysFilePath(config.workingDir));
  if (!redis) throw new Error('distributed mode keeps keys in Redis: a Redis connection is required');
  return new RedisKeyStore(redis, { namespace: config.topicPrefix });
}

export function correctionLogFor(config: ModeConfig, redis?: Redis): CorrectionLog {
  if (config.mode === 'embedded') return new InMemoryCorrectionLog();
  if (!redis) throw new Error('distributed mode keeps corrections in Redis: a Redis connection is required');
  return new RedisCorrectionLog(redis, { namespace: config.topicPrefix });
}

/** Distributed: every gateway instance numbers a hook session's steps on one Redis counter. */
export function stepSeqsFor(config: ModeConfig, redis?: Redis): StepSeqs {
  if (config.mode === 'embedded') return new InMemoryStepSeqs();
  if (!redis) throw new Error('distributed mode numbers hook and MCP steps in Redis: a Redis connection is required');
  return new RedisStepSeqs(redis, { namespace: config.topicPrefix });
}

/** The authenticator of a configuration; throws naming WAYFINDER_API_KEYS when it does not parse. */
export function authenticatorFor(config: ModeConfig & Pick<WayfinderConfig, 'apiKeys' | 'gatewayHost'>, store: KeyStore): TenantAuthenticator {
  const seeds = parseApiKeysVariable(config.apiKeys);
  if (!seeds.ok) throw new Error(`WAYFINDER_API_KEYS: ${seeds.error}`);
  return new TenantAuthenticator(seeds.value, store, config.mode === 'embedded' && isLoopbackHost(config.gatewayHost));
}
