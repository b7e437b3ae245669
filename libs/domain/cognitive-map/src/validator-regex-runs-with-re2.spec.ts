// Milestone validators' regexes come from tenants: they run with RE2 semantics (linear time, so a
// catastrophic pattern cannot stall a worker), and one RE2 cannot run is refused when the task is parsed.
import type { StepEvent, TaskSpec } from '@wayfinder/contracts';
import { parseTask } from './task-parser';
import { evaluateValidator } from './validators';

const spec = (pattern: string): TaskSpec => ({
  schema: 'wayfinder.task.v1', eventId: 't', tenantId: 'acme', ts: '2026-01-01T00:00:00Z', taskId: 'job', goal: 'Build it then ship it',
  milestones: [
    { id: 'build', description: 'build it', dependsOn: [], validator: { type: 'regex', pattern, on: 'message' } },
    { id: 'ship', description: 'ship it', dependsOn: ['build'] },
  ],
});

const say = (text: string): StepEvent => ({ schema: 'wayfinder.step.v1', eventId: 'e', tenantId: 'acme', agentId: 'a', taskId: 'job', seq: 1, ts: '2026-01-01T00:00:00Z', kind: 'message', message: { role: 'assistant', type: 'output', text } });

describe('validator regexes from tenants', () => {
  it('run in linear time even when the pattern would backtrack catastrophically', () => {
    const parsed = parseTask(spec('^(a+)+$'));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const validator = parsed.value.milestones[0].validator;
    expect(evaluateValidator(validator, say('a'.repeat(200) + '!'))).toBe(false);
    expect(evaluateValidator(validator, say('aaaa'))).toBe(true);
  });

  it('are refused when RE2 cannot run them, naming the milestone', () => {
    const parsed = parseTask(spec('(\\w+) \\1'));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.code).toBe('invalid_spec');
      expect(parsed.error.ids).toEqual(['build']);
      expect(parsed.error.message).toContain('not a safe regular expression');
    }
  });
});
