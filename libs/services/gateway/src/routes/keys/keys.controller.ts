/**
 * The key's tenant's API keys, for its operators (the dashboard's `/keys` page reads these routes):
 * - `GET /v1/keys`: every stored key of the tenant, active and revoked, without its hash;
 * - `POST /v1/keys` `{role?: "operator" | "viewer"}`: a new key, shown once in the answer (201);
 * - `DELETE /v1/keys/:keyId`: revokes it at once (sessions opened with it end too); another tenant's key
 *   id is a 404, as if absent.
 * Viewer keys are refused (403 naming `role`) on all three, reads included: a key list tells who can get
 * in. Keys from WAYFINDER_API_KEYS are not stored and not listed. The tenant is always the request's (an
 * operator of one tenant never sees another's keys); in local mode, creating the first key ends local
 * mode, as `wayfinder keys create` does.
 */
import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { generateApiKey, KEY_ROLES, roleOf, type ApiKeyRecord, type ResolvedTenant, type TenantAuthenticator } from '@wayfinder/tenancy';
import { z } from 'zod';
import { CurrentTenant } from '../../auth/tenant.guard';
import { badRequest, forbidden, notFound, zodProblem } from '../../http/api-error';
import { parseJson, readBody } from '../../http/request-body';
import { AUTHENTICATOR } from '../../tokens';

const CreateKeyBody = z.object({ role: z.enum(KEY_ROLES as [string, ...string[]]).optional() }).strict();
const KEY_ID = /^key_[0-9a-f]{1,64}$/;

/** A stored key as the routes show it: never its hash. */
export interface KeyView {
  readonly keyId: string;
  readonly tenantId: string;
  readonly role: string;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

function viewOf(record: ApiKeyRecord): KeyView {
  return { keyId: record.keyId, tenantId: record.tenantId, role: roleOf(record), createdAt: record.createdAt, revokedAt: record.revokedAt ?? null };
}

function requireOperatorKey(tenant: ResolvedTenant): void {
  if (tenant.role !== 'operator') throw forbidden('this key has the viewer role: managing keys needs an operator key', 'role');
}

@Controller('v1/keys')
export class KeysController {
  constructor(@Inject(AUTHENTICATOR) private readonly auth: TenantAuthenticator) {}

  @Get()
  async list(@CurrentTenant() tenant: ResolvedTenant): Promise<{ keys: KeyView[] }> {
    requireOperatorKey(tenant);
    return { keys: (await this.auth.keyStore.list(tenant.tenantId)).map(viewOf) };
  }

  @Post()
  @HttpCode(201)
  async create(@Req() req: IncomingMessage, @CurrentTenant() tenant: ResolvedTenant): Promise<KeyView & { key: string }> {
    requireOperatorKey(tenant);
    const body = CreateKeyBody.safeParse(parseJson(await readBody(req, 4 * 1024)) ?? {});
    if (!body.success) throw badRequest(`${zodProblem(body.error).error} (role is operator or viewer)`, zodProblem(body.error).field);
    const created = generateApiKey(tenant.tenantId, new Date(), undefined, body.data.role === 'viewer' ? 'viewer' : 'operator');
    await this.auth.keyStore.add(created.record);
    return { key: created.key, ...viewOf(created.record) };
  }

  @Delete(':keyId')
  async revoke(@Param('keyId') keyId: string, @CurrentTenant() tenant: ResolvedTenant): Promise<{ revoked: true; keyId: string }> {
    requireOperatorKey(tenant);
    if (!KEY_ID.test(keyId)) throw badRequest('keyId must be a key id as GET /v1/keys lists it (key_ and hex digits)', 'keyId');
    if (!(await this.auth.keyStore.revoke(tenant.tenantId, keyId))) throw notFound(`no key ${keyId} in this tenant`);
    return { revoked: true, keyId };
  }
}
