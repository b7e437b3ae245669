/** Policy resolution: agent over task over tenant over profile, deep-merged per section. */
import { PROFILES } from './profiles';
import { resolvePolicy } from './resolve';

describe('resolvePolicy', () => {
  it('defaults to balanced', () => {
    expect(resolvePolicy()).toEqual(PROFILES.balanced);
  });

  it('lays agent over task over tenant over the profile the tenant names', () => {
    const tenant = { profile: 'strict' as const, loop: { warning: 7, critical: 14 } };
    const task = { loop: { critical: 12 } };
    const agent = { loop: { warning: 4 } };
    const policy = resolvePolicy(agent, task, tenant);
    expect(policy.profile).toBe('strict');
    expect(policy.loop.warning).toBe(4);
    expect(policy.loop.critical).toBe(12);
    expect(policy.loop.globalBreaker).toBe(PROFILES.strict.loop.globalBreaker);
  });

  it('turns a detector on when an overlay configures its section, unless it says enabled: false', () => {
    expect(PROFILES.openclaw.stagnation.enabled).toBe(false);
    const on = resolvePolicy({ profile: 'openclaw', stagnation: { warningSteps: 6, criticalSteps: 12 } });
    expect(on.stagnation).toMatchObject({ enabled: true, warningSteps: 6, criticalSteps: 12, warningFactor: PROFILES.openclaw.stagnation.warningFactor });
    const off = resolvePolicy({ profile: 'openclaw', stagnation: { warningSteps: 6, enabled: false } });
    expect(off.stagnation.enabled).toBe(false);
    expect(resolvePolicy({ profile: 'openclaw' }).monologue.enabled).toBe(false);
  });

  it('replaces lists instead of merging them and never mutates the profiles', () => {
    const policy = resolvePolicy({ exemptTools: ['heartbeat'], loop: { pollTools: ['check_*'] } });
    expect(policy.exemptTools).toEqual(['heartbeat']);
    expect(policy.loop.pollTools).toEqual(['check_*']);
    expect(PROFILES.balanced.loop.pollTools).toContain('*_status');
  });

  it('keeps the openclaw thresholds of the conformance README', () => {
    expect(PROFILES.openclaw.loop).toMatchObject({ historySize: 30, warning: 10, critical: 20, globalBreaker: 30, unknownTool: 10, errorRepeatWarning: 3, errorRepeatCritical: 5, postCompactionWindow: 3 });
  });
});
