import { agentStateOf, agentTimelineOf } from './agent-story';
import { fleetViewOf } from './fleet-view';
import type { AckRecord, AgentEntry, HistoryRecord } from './history-record';
import { at, correctionRecord, deviationRecord, escalationRecord, stepRecord, T0 } from './history-fixtures.testing';

const a = { tenantId: 'acme', agentId: 'stuck' };
const entry: AgentEntry = { agentId: 'stuck', taskId: 'task-1', runId: null, firstSeen: '', lastSeen: '', lastSeq: 5 };

function frozen(): HistoryRecord[] {
  return [
    ...[1, 2, 3, 4, 5].map((seq) => stepRecord(a, seq, T0 + seq * 1_000, { argsHash: 'same' })),
    deviationRecord(a, 5, T0 + 5_100),
    correctionRecord(a, 5, T0 + 5_200, { action: 'freeze', summary: 'frozen: loop persisted' }),
    escalationRecord(a, 1, T0 + 5_200),
  ];
}

const resume: AckRecord = { id: 'ack:resume-1', kind: 'ack', tenantId: 'acme', agentId: 'stuck', taskId: 'task-1', runId: null, ts: at(T0 + 60_000), subject: 'resume', correctionId: null, outcome: null, note: 'operator' };

describe('a frozen agent stays frozen, with an open escalation, until resumed', () => {
  it('is frozen and its escalation open; the fleet counts it', () => {
    const timeline = agentTimelineOf('acme', entry, frozen());
    expect(timeline.agent.state).toBe('frozen');
    expect(timeline.corrections.map((c) => c.outcome)).toEqual(['frozen']);
    expect(timeline.escalations.map((e) => e.open)).toEqual([true]);
    const fleet = fleetViewOf('acme', [{ summary: timeline.agent, stories: timeline.corrections, history: frozen() }]);
    expect(fleet.states.frozen).toBe(1);
    expect(fleet.openEscalations).toBe(1);
    expect(fleet.topDetectors).toEqual([{ detector: 'generic_repeat', deviations: 1, falsePositives: 0, falsePositiveShare: 0 }]);
  });

  it('works again after a resume, and the escalation is closed', () => {
    const history = [...frozen(), resume];
    expect(agentStateOf(history)).toBe('working');
    expect(agentTimelineOf('acme', entry, history).escalations.map((e) => e.open)).toEqual([false]);
  });
});
