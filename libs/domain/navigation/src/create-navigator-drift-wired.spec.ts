import type { StepEvent } from '@wayfinder/contracts';
import { PROFILES } from '@wayfinder/detection';
import { createNavigator } from './create-navigator';

function run(texts: Array<string | { tool: string; args: Record<string, string> }>): StepEvent[] {
  const base = { schema: 'wayfinder.step.v1' as const, tenantId: 't', agentId: 'a', taskId: 'task', runId: 'r', ts: '2026-01-01T00:00:00Z' };
  return texts.map((t, seq) =>
    typeof t === 'string'
      ? { ...base, eventId: `e${seq}`, seq, kind: 'message', message: { role: 'assistant', type: 'thought', text: t } }
      : { ...base, eventId: `e${seq}`, seq, kind: 'action', action: { tool: t.tool, args: t.args } },
  );
}

describe('createNavigator wires the drift detector', () => {
  it('flags a run that abandons its look-up plan and answers without a single tool call', () => {
    const navigator = createNavigator({ policy: PROFILES.balanced });
    const steps = run([
      'Facts: which album by Fiona Apple got no letter grade from Robert Christgau?',
      "1. Search the web for Fiona Apple's albums.\n2. Look up Christgau's grades.\n3. Answer.",
      { tool: 'final_answer', args: { answer: 'Harbinger' } },
    ]);
    const drift = steps.flatMap((s) => navigator.onStep(s).deviations).filter((d) => d.detector === 'drift');
    expect(drift).toHaveLength(1);
    expect(drift[0]).toMatchObject({ atSeq: 2, evidence: { curve: 'plan' } });
  });

  it('stays quiet when drift is disabled by the policy', () => {
    const navigator = createNavigator({ policy: { ...PROFILES.balanced, drift: { ...PROFILES.balanced.drift, enabled: false } } });
    const steps = run([
      'Facts: which album by Fiona Apple got no letter grade from Robert Christgau?',
      "1. Search the web for Fiona Apple's albums.\n2. Look up Christgau's grades.\n3. Answer.",
      { tool: 'final_answer', args: { answer: 'Harbinger' } },
    ]);
    expect(steps.flatMap((s) => navigator.onStep(s).deviations).filter((d) => d.detector === 'drift')).toEqual([]);
  });
});
