/**
 * `wayfinder keys create|list|revoke --tenant T`: tenant API keys for the gateway (DESIGN §12). Embedded
 * mode keeps them in `.wayfinder/keys.json` of the working directory, distributed mode in Redis (under
 * the topic prefix). Only hashes are stored: `create` prints the key once, on stdout.
 */
import Redis from 'ioredis';
import { ConfigError, loadConfig } from '@wayfinder/config';
import { keyStoreFor } from '@wayfinder/service-gateway';
import { checkTenantId, generateApiKey, isKeyRole, KEY_ROLES, roleOf, type KeyRole, type KeyStore } from '@wayfinder/tenancy';
import { parseCommandArgs } from '../args';
import { UsageError, type Command, type CommandIo } from '../command';
import { keysHelp } from './keys.help';

export const keysCommand: Command = {
  ...keysHelp,
  async run(argv: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, { tenant: { type: 'string' }, mode: { type: 'string' }, redis: { type: 'string' }, role: { type: 'string' } });
    const [action, ...rest] = positionals;
    if (!action) throw new UsageError('missing action: create, list or revoke');
    if (!['create', 'list', 'revoke'].includes(action)) throw new UsageError(`unknown action '${action}' (create, list or revoke)`);
    const tenant = values.tenant;
    if (tenant === undefined) throw new UsageError('--tenant is required');
    const problem = checkTenantId(tenant);
    if (problem) throw new UsageError(`--tenant: ${problem}`);
    if (action === 'revoke' && rest.length !== 1) throw new UsageError('revoke takes one KEYID (see wayfinder keys list --tenant T)');
    if (action !== 'revoke' && rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
    const role = values.role ?? 'operator';
    if (!isKeyRole(role)) throw new UsageError(`--role must be one of ${KEY_ROLES.join(', ')}, got '${role}'`);
    if (values.role !== undefined && action !== 'create') throw new UsageError('--role applies to create only');
    let config;
    try {
      config = loadConfig(process.env, { mode: values.mode, redis: values.redis });
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
    let redis: Redis | undefined;
    if (config.mode === 'distributed') {
      redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      const url = config.redisUrl;
      await redis.connect().catch((error: Error) => {
        throw new Error(`Redis at ${url} does not answer: ${error.message}`);
      });
    }
    try {
      return await runAction(action, tenant, rest[0], role, keyStoreFor(config, redis), io);
    } finally {
      await redis?.quit().catch(() => undefined);
    }
  },
};

async function runAction(action: string, tenant: string, keyId: string | undefined, role: KeyRole, store: KeyStore, io: CommandIo): Promise<number> {
  if (action === 'create') {
    const created = generateApiKey(tenant, new Date(), undefined, role);
    await store.add(created.record);
    io.stdout.write(`${created.key}\n`);
    io.stderr.write(`created ${created.record.keyId} (${role}) for tenant ${tenant}; the key above is shown only now: store it\n`);
    return 0;
  }
  if (action === 'list') {
    for (const record of await store.list(tenant)) {
      io.stdout.write(`${record.keyId}\t${roleOf(record)}\t${record.revokedAt ? `revoked ${record.revokedAt}` : 'active'}\tcreated ${record.createdAt}\n`);
    }
    return 0;
  }
  if (!(await store.revoke(tenant, keyId as string))) throw new UsageError(`tenant ${tenant} has no key ${keyId}`);
  io.stderr.write(`revoked ${keyId} of tenant ${tenant}\n`);
  return 0;
}
