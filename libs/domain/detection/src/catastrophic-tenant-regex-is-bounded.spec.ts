/**
 * A tenant's policy pattern that would backtrack catastrophically on the usual engine (`(a+)+$` on
 * "aaaa…!" takes 2^n steps) runs with RE2 semantics: the worker normalizes such outputs in linear time,
 * so these steps finish at all (with backtracking, one of them would take longer than the universe has
 * left). What RE2 cannot express (backreferences, lookaround) is rejected at validation with the reason.
 */
import type { StepEvent } from '@wayfinder/contracts';
import { DetectionEngine } from './detection.engine';
import { resolvePolicy } from './policy/resolve';
import { validatePolicy } from './policy/validate';

function observation(seq: number, content: string): StepEvent {
  return { schema: 'wayfinder.step.v1', eventId: `e${seq}`, tenantId: 't1', agentId: 'a1', taskId: 'job', runId: 'r', seq, ts: '2026-01-01T00:00:00Z', kind: 'observation', observation: { tool: 'shell', ok: true, content } };
}

describe('a catastrophic regex in a tenant policy', () => {
  it('is accepted as RE2 and runs in linear time on the input that would stall a backtracking engine', () => {
    const overlay = { normalization: { volatileKeys: {}, volatilePatterns: { '*': ['(a+)+$', '(x|x)*y'] } } };
    const validated = validatePolicy(overlay);
    expect(validated.ok).toBe(true);
    const policy = resolvePolicy(overlay);
    const engine = new DetectionEngine({ policyFor: () => ({ policy }) });
    const evil = 'a'.repeat(5_000) + '!';
    for (let seq = 0; seq < 200; seq++) engine.onStep(observation(seq, `${evil} ${'x'.repeat(3_000)}z #${seq}`));
    expect(engine.agentCount).toBe(1);
  });

  it('is rejected at validation when RE2 cannot run it (backreference, lookahead), naming the field', () => {
    const validated = validatePolicy({ normalization: { volatileKeys: {}, volatilePatterns: { shell: ['ok', '(\\w+)\\s\\1', '(?=a)a'] } } });
    expect(validated.ok).toBe(false);
    if (!validated.ok) {
      expect(validated.error).toContain('normalization.volatilePatterns.shell.1: not a safe regular expression');
      expect(validated.error).toContain('normalization.volatilePatterns.shell.2: not a safe regular expression');
      expect(validated.error).not.toContain('shell.0');
    }
  });
});
