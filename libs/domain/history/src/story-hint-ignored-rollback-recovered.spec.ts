import { agentTimelineOf, correctionStories } from './agent-story';
import type { AgentEntry, HistoryRecord } from './history-record';
import { correctionRecord, deviationRecord, stepRecord, T0 } from './history-fixtures.testing';

const a = { tenantId: 'acme', agentId: 'a1' };
const entry: AgentEntry = { agentId: 'a1', taskId: 'task-1', runId: null, firstSeen: '', lastSeen: '', lastSeq: 14 };

/** Steps 1-3 progress on m1, 4-9 repeat one call (a loop from 4), a hint at 6 is ignored, a rollback at 9 heals at 11. */
function history(): HistoryRecord[] {
  const records: HistoryRecord[] = [];
  for (let seq = 1; seq <= 14; seq++) {
    const looping = seq >= 4 && seq <= 10;
    records.push(stepRecord(a, seq, T0 + seq * 1_000, { argsHash: looping ? 'same' : `h${seq}`, progress: looping ? 0.3 : Math.min(1, seq / 10), completed: seq >= 12 ? ['m1'] : [], milestoneId: seq >= 12 ? 'm2' : 'm1' }));
  }
  records.push(deviationRecord(a, 6, T0 + 6_100, { loopStartSeq: 4 }), correctionRecord(a, 6, T0 + 6_200));
  records.push(deviationRecord(a, 9, T0 + 9_100, { loopStartSeq: 4 }), correctionRecord(a, 9, T0 + 9_200, { action: 'rollback', summary: 'roll back to m1' }));
  return records;
}

describe('an agent story: a hint ignored, then a rollback that heals', () => {
  it('gives each correction its outcome and what followed', () => {
    const stories = correctionStories(history());
    expect(stories.map((s) => [s.correction.action, s.outcome])).toEqual([['hint', 'ignored'], ['rollback', 'recovered']]);
    expect(stories[0].followedBy).toBe('the loop went on: a rollback at step 9');
    expect(stories[1].followedBy).toBe('progress on m1 at step 11');
  });

  it('says the agent works again, with its loop start, positions and a curve marking the loop', () => {
    const timeline = agentTimelineOf('acme', entry, history());
    expect(timeline.agent).toMatchObject({ state: 'working', deviations: 2, corrections: 2, loopStartSeq: 4 });
    expect(timeline.positions.map((p) => p.completed)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    const curve = timeline.curve;
    expect(curve.find((p) => p.seq === 6)?.corrections).toEqual(['hint']);
    expect(curve.find((p) => p.seq === 9)?.deviations).toEqual(['generic_repeat']);
    expect(curve.find((p) => p.seq === 12)?.milestone).toBe('m1');
    // The repeats drag the window down; it is lower at the rollback than before the loop.
    expect(curve.find((p) => p.seq === 9)!.window).toBeLessThan(curve.find((p) => p.seq === 3)!.window);
  });

  it('is looping while a deviation has no answer and recovering while a correction is pending', () => {
    const all = history();
    const untilFirstDeviation = all.filter((r) => r.ts <= new Date(T0 + 6_100).toISOString());
    expect(agentTimelineOf('acme', entry, untilFirstDeviation).agent.state).toBe('looping');
    const withHint = all.filter((r) => r.ts <= new Date(T0 + 7_000).toISOString());
    expect(agentTimelineOf('acme', entry, withHint).agent.state).toBe('recovering');
  });
});
