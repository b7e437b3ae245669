// Which correction the proxy and the hooks deliver, and how: the newest unacknowledged guidance goes in
// as a system message after the agent's own system prompt (acknowledged once applied, so it goes in
// once); a freeze refuses until a resume acknowledges it; a correction after a freeze means the agent
// was resumed.
import type { Correction } from '@wayfinder/contracts';
import { frozenError, guidanceText, pendingCorrections, withGuidance } from './chat-corrections';

const base = { schema: 'wayfinder.correction.v1' as const, tenantId: 'acme', ts: '2026-01-01T00:00:00.000Z', agentId: 'a1', taskId: 't1', runId: null, deviationIds: ['d1'], atSeq: 10, reason: 'read_file failed 5 times the same way' };
const hint: Correction = { ...base, eventId: 'c1', severity: 'mild', action: 'hint', hint: { text: 'Stop retrying read_file: the permission error will not change.' } };
const rollback: Correction = { ...base, eventId: 'c2', severity: 'moderate', action: 'rollback', rollback: { checkpointId: 'cp1', milestoneId: 'm1', discardAfterSeq: 4 } };
const replan: Correction = { ...base, eventId: 'c3', severity: 'severe', action: 'replan', replan: { fromMilestoneId: 'm1', remaining: ['m2', 'm3'], reason: 'the file cannot be read' } };
const freeze: Correction = { ...base, eventId: 'c4', severity: 'critical', action: 'freeze', freeze: { escalationId: 'esc-1', reason: 'the loop persisted through three corrections' } };

describe('pending corrections', () => {
  it('delivers the newest guidance until it is acknowledged', () => {
    expect(pendingCorrections([{ correction: hint, acked: false }])).toEqual({ guidance: hint });
    expect(pendingCorrections([{ correction: hint, acked: true }])).toEqual({});
    expect(pendingCorrections([{ correction: hint, acked: false }, { correction: rollback, acked: false }])).toEqual({ guidance: rollback });
    expect(pendingCorrections([])).toEqual({});
  });

  it('refuses a frozen agent until the freeze is acknowledged (resume) or another correction follows it', () => {
    expect(pendingCorrections([{ correction: hint, acked: true }, { correction: freeze, acked: false }])).toEqual({ frozen: freeze });
    expect(pendingCorrections([{ correction: freeze, acked: true }])).toEqual({});
    expect(pendingCorrections([{ correction: freeze, acked: false }, { correction: hint, acked: false }])).toEqual({ guidance: hint });
  });
});

describe('guidance in the messages', () => {
  it('goes after the agent’s own system (and developer) messages, the rest untouched', () => {
    const messages = [
      { role: 'system', content: 'You are the report agent.' },
      { role: 'developer', content: 'Answer in English.' },
      { role: 'user', content: 'Write the report.' },
      { role: 'assistant', content: 'ok' },
    ];
    const out = withGuidance(messages, 'HINT');
    expect(out).toEqual([messages[0], messages[1], { role: 'system', content: 'HINT' }, messages[2], messages[3]]);
    expect(messages).toHaveLength(4);
    expect(withGuidance([{ role: 'user', content: 'x' }], 'HINT')[0]).toEqual({ role: 'system', content: 'HINT' });
  });

  it('says what each correction means', () => {
    expect(guidanceText(hint as never)).toBe('Stop retrying read_file: the permission error will not change.');
    expect(guidanceText(rollback as never)).toBe('Go back to step 4 (milestone m1): read_file failed 5 times the same way. Treat your steps after it as undone and continue from there.');
    expect(guidanceText(replan as never)).toBe('Revised plan (from milestone m1): the file cannot be read\n1. m2\n2. m3');
  });

  it('answers a frozen agent in the OpenAI error shape, saying why and how to resume', () => {
    expect(frozenError(freeze as never)).toEqual({
      error: {
        message: 'Wayfinder froze agent a1: the loop persisted through three corrections (escalation esc-1). A human must resume it: `npx wayfinder agent resume a1`, the dashboard\'s agent page, or POST /v1/agents/a1/resume.',
        type: 'agent_frozen',
        param: null,
        code: 'agent_frozen',
      },
    });
  });
});
