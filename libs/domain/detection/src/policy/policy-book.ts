/**
 * The latest TenantPolicy of every tenant (from the compacted policies topic), resolved per step in the
 * order of DESIGN §6: agent override → task override → tenant policy → built-in profile. Resolved
 * policies are cached per (tenant, overridden task, overridden agent) and dropped when the tenant publishes a new policy, so a
 * change applies live to the next step. One tenant's policy never applies to another tenant's agents.
 * Pure: the services feed it from the policies topic (PoliciesHandler of @wayfinder/service-core).
 */
import { compositeKey, type CognitiveMap, type PolicySettings, type ProfileName, type StepEvent, type TenantPolicy } from '@wayfinder/contracts';
import type { DetectionContext } from '../types';
import { resolvePolicy } from './resolve';

export class PolicyBook {
  private readonly tenants = new Map<string, TenantPolicy>();
  private readonly resolved = new Map<string, PolicySettings>();

  constructor(private readonly defaultProfile: ProfileName = 'balanced') {}

  /** Applies a published policy; an older one (by `ts`) than what the tenant has is ignored. */
  apply(policy: TenantPolicy): boolean {
    const current = this.tenants.get(policy.tenantId);
    if (current && Date.parse(current.ts) > Date.parse(policy.ts)) return false;
    this.tenants.set(policy.tenantId, policy);
    const prefix = compositeKey(policy.tenantId);
    for (const key of [...this.resolved.keys()]) if (key.startsWith(prefix)) this.resolved.delete(key);
    return true;
  }

  /** The tenant's latest published policy document, if it published one. */
  documentOf(tenantId: string): TenantPolicy | undefined {
    return this.tenants.get(tenantId);
  }

  /** The built-in profile tenants get when they publish no policy. */
  get profile(): ProfileName {
    return this.defaultProfile;
  }

  /** The tenant's published policy as is (operations settings: shadow, webhook), if any. */
  tenant(tenantId: string): TenantPolicy | undefined {
    return this.documentOf(tenantId);
  }

  /**
   * The resolved policy of an agent. Agents with no override of their own share one object per tenant
   * (and per task that has an override), so a fleet of 100,000 agents holds a handful of resolved and
   * compiled policies, not one each.
   */
  policyOf(tenantId: string, taskId: string, agentId: string): PolicySettings {
    const tenant = this.tenants.get(tenantId);
    const agentOverride = tenant?.agents?.[agentId];
    const taskOverride = tenant?.tasks?.[taskId];
    const key = compositeKey(tenantId, taskOverride ? taskId : '', agentOverride ? agentId : '');
    let policy = this.resolved.get(key);
    if (!policy) {
      policy = resolvePolicy(agentOverride, taskOverride, tenant?.policy, { profile: tenant?.policy.profile ?? this.defaultProfile });
      this.resolved.set(key, policy);
    }
    return policy;
  }

  contextFor(step: Pick<StepEvent, 'tenantId' | 'taskId' | 'agentId'>, map?: CognitiveMap): DetectionContext {
    const context: DetectionContext = { policy: this.policyOf(step.tenantId, step.taskId, step.agentId) };
    if (map?.expectedStepMs) context.expectedStepMs = map.expectedStepMs;
    if (map?.maxSteps) context.maxSteps = map.maxSteps;
    if (map) context.map = map;
    return context;
  }
}
