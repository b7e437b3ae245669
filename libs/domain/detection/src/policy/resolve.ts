/**
 * Policy resolution (DESIGN §6): overlays are laid over a built-in profile, most specific first
 * (agent → task → tenant → profile). A section an overlay configures switches its detector on unless
 * the overlay says `enabled: false`, so a tenant enabling stagnation only has to give its thresholds.
 */
import { PolicyOverlay, type PolicySettings, type ProfileName } from '@wayfinder/contracts';
import { DEFAULT_PROFILE, PROFILES } from './profiles';

const TOGGLED_SECTIONS = ['nearDuplicate', 'monologue', 'repetition', 'stagnation', 'drift', 'constraints', 'budget', 'verification', 'alignCheck', 'planCheck', 'crossAgent', 'cycle', 'contentRepetition', 'compactionLoop'] as const;

/**
 * Resolves overlays given most specific first (`resolvePolicy(agent, task, tenant)`). The profile is the
 * first `profile` named by any of them, else `balanced`. Missing overlays (undefined) are skipped.
 */
export function resolvePolicy(...overlays: (PolicyOverlay | undefined | null)[]): PolicySettings {
  const present = overlays.filter((o): o is PolicyOverlay => o !== undefined && o !== null);
  const profile: ProfileName = present.find((o) => o.profile !== undefined)?.profile ?? DEFAULT_PROFILE;
  let policy = clone(PROFILES[profile]);
  // Least specific first, so the agent's overlay has the last word.
  for (let i = present.length - 1; i >= 0; i--) policy = applyOverlay(policy, present[i]);
  policy.profile = profile;
  return policy;
}

export function applyOverlay(base: PolicySettings, overlay: PolicyOverlay): PolicySettings {
  const out = clone(base) as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(overlay)) {
    if (value === undefined || key === 'profile') continue;
    if (Array.isArray(value) || typeof value !== 'object' || value === null) {
      out[key] = clone(value);
      continue;
    }
    const section = { ...(out[key] as Record<string, unknown>) };
    for (const [field, fieldValue] of Object.entries(value)) {
      if (fieldValue === undefined) continue;
      const current = section[field];
      section[field] =
        current && typeof current === 'object' && !Array.isArray(current) && typeof fieldValue === 'object' && !Array.isArray(fieldValue)
          ? { ...(current as Record<string, unknown>), ...clone(fieldValue as Record<string, unknown>) }
          : clone(fieldValue);
    }
    if ((TOGGLED_SECTIONS as readonly string[]).includes(key) && !('enabled' in (value as object))) section.enabled = true;
    out[key] = section;
  }
  return out as unknown as PolicySettings;
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
