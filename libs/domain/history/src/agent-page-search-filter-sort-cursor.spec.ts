import type { DetectorName } from '@wayfinder/contracts';
import { agentPageOf } from './agent-query';
import type { AgentState, AgentSummary } from './agent-story';
import { detectorRatesOf } from './detector-rates';
import type { HistoryRecord } from './history-record';

function agent(agentId: string, state: AgentState, lastSeenSec: number, detectors: DetectorName[] = [], taskId = 'report'): AgentSummary {
  const ts = new Date(Date.UTC(2026, 0, 1, 0, 0, lastSeenSec)).toISOString();
  return { agentId, taskId, runId: null, firstSeen: ts, lastSeen: ts, lastSeq: 1, tenantId: 't', state, deviations: detectors.length, corrections: 0, loopStartSeq: null, detectors };
}

const FLEET = [
  agent('a-working-old', 'working', 1),
  agent('a-frozen', 'frozen', 2, ['generic_repeat']),
  agent('a-working-new', 'working', 9),
  agent('a-looping', 'looping', 3, ['generic_repeat', 'stagnation'], 'crawl'),
  agent('a-done', 'done', 10),
];

describe('agentPageOf', () => {
  it('puts the agents needing a person first, newest first within a state', () => {
    expect(agentPageOf(FLEET).agents.map((a) => a.agentId)).toEqual(['a-frozen', 'a-looping', 'a-working-new', 'a-working-old', 'a-done']);
  });

  it('searches agent and task ids, and filters by state and detector', () => {
    expect(agentPageOf(FLEET, { search: 'CRAWL' }).agents.map((a) => a.agentId)).toEqual(['a-looping']);
    expect(agentPageOf(FLEET, { search: 'working' }).total).toBe(2);
    expect(agentPageOf(FLEET, { detector: 'generic_repeat' }).agents.map((a) => a.agentId)).toEqual(['a-frozen', 'a-looping']);
    expect(agentPageOf(FLEET, { state: 'done' }).agents.map((a) => a.agentId)).toEqual(['a-done']);
  });

  it('pages with a cursor that an arrival between two pages neither repeats nor skips', () => {
    const first = agentPageOf(FLEET, { sort: 'agentId', limit: 2 });
    expect(first.agents.map((a) => a.agentId)).toEqual(['a-done', 'a-frozen']);
    expect(first.total).toBe(5);
    const arrived = [...FLEET, agent('a-aaa-new', 'working', 11)];
    const second = agentPageOf(arrived, { sort: 'agentId', limit: 2, cursor: first.nextCursor! });
    expect(second.agents.map((a) => a.agentId)).toEqual(['a-looping', 'a-working-new']);
    const third = agentPageOf(arrived, { sort: 'agentId', limit: 2, cursor: second.nextCursor! });
    expect(third.agents.map((a) => a.agentId)).toEqual(['a-working-old']);
    expect(third.nextCursor).toBeNull();
  });

  it('refuses a cursor it did not give, or one given for another sort', () => {
    expect(() => agentPageOf(FLEET, { cursor: 'not-a-cursor' })).toThrow('cursor is not one this API gave');
    const byId = agentPageOf(FLEET, { sort: 'agentId', limit: 1 }).nextCursor!;
    expect(() => agentPageOf(FLEET, { sort: 'deviations', cursor: byId })).toThrow('sort=agentId, not sort=deviations');
  });
});

describe('detectorRatesOf', () => {
  it('counts deviations and the corrections answering them per minute, by detector', () => {
    const now = Date.UTC(2026, 0, 1, 0, 9, 30);
    const base = { tenantId: 't', agentId: 'a', taskId: 'x', runId: null };
    const at = (min: number) => new Date(Date.UTC(2026, 0, 1, 0, min, 5)).toISOString();
    const history: HistoryRecord[] = [
      { ...base, id: 'deviation:1', kind: 'deviation', ts: at(8), deviationId: 'd1', detector: 'generic_repeat', level: 'warning', count: 3, atSeq: 3, loopStartSeq: 0, message: 'm', tool: 't', argsHash: null },
      { ...base, id: 'deviation:2', kind: 'deviation', ts: at(9), deviationId: 'd2', detector: 'generic_repeat', level: 'critical', count: 5, atSeq: 5, loopStartSeq: 0, message: 'm', tool: 't', argsHash: null },
      { ...base, id: 'correction:1', kind: 'correction', ts: at(9), correctionId: 'c1', action: 'hint', severity: 'mild', atSeq: 5, deviationIds: ['d1', 'd2'], summary: 's' },
      { ...base, id: 'deviation:old', kind: 'deviation', ts: new Date(Date.UTC(2025, 11, 31)).toISOString(), deviationId: 'd0', detector: 'stagnation', level: 'warning', count: 1, atSeq: 1, loopStartSeq: 0, message: 'm', tool: null, argsHash: null },
    ];
    const rates = detectorRatesOf([history], now, 10);
    expect(rates.from).toBe(new Date(Date.UTC(2026, 0, 1, 0, 0)).toISOString());
    expect(rates.detectors).toEqual([{ detector: 'generic_repeat', deviations: [0, 0, 0, 0, 0, 0, 0, 0, 1, 1], corrections: [0, 0, 0, 0, 0, 0, 0, 0, 0, 1] }]);
  });
});
