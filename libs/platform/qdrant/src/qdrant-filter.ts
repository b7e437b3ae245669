/**
 * Builds the Qdrant filter of a query or delete. The tenant condition is not optional and comes first:
 * there is no way to build a filter of this module without naming a tenant.
 */
import { assertTenant, type MemoryFilter } from '@wayfinder/memory';

export type FieldCondition = { key: string; match: { value: string } | { any: string[] } };

export interface TenantFilter {
  must: FieldCondition[];
}

export const TENANT_FIELD = 'tenantId';

export function tenantFilter(tenantId: string, filter?: MemoryFilter): TenantFilter {
  assertTenant(tenantId);
  const must: FieldCondition[] = [{ key: TENANT_FIELD, match: { value: tenantId } }];
  if (filter?.kind !== undefined) {
    const kinds = typeof filter.kind === 'string' ? [filter.kind] : [...filter.kind];
    must.push({ key: 'kind', match: { any: kinds } });
  }
  if (filter?.milestoneId !== undefined) must.push({ key: 'milestoneId', match: { value: filter.milestoneId } });
  if (filter?.taskId !== undefined) must.push({ key: 'taskId', match: { value: filter.taskId } });
  return { must };
}
