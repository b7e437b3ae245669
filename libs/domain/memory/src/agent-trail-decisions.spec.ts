/**
 * The memory service's decisions on an agent's trail, pure (they used to live in the service's
 * MemoryRecorder): redelivery by run and seq, checkpoint on newly completed milestones with the id the
 * correction engine names, STATE with the failure line until progress, keep-alive every quarter TTL, the
 * charter on a new map and on feedback.
 */
import { checkpointId, type CognitiveMap, type Position, type StepEvent } from '@wayfinder/contracts';
import {
  admitStep,
  advanceOnMap,
  charterOnFeedback,
  charterOnMap,
  concludeWith,
  keepAliveDue,
  logEntry,
  markCheckpointed,
  MAX_REFERENCES,
  mergeCharter,
  moveTo,
  newTrail,
  stateAfterCorrection,
  stateChanged,
  trailState,
  withFailure,
} from './agent-trail';
import { appendFeedback, charterFromMap } from './charter';

const TS = '2026-01-01T00:00:00.000Z';
const map: CognitiveMap = {
  schema: 'wayfinder.map.v1', eventId: 'map-t-1', tenantId: 'acme', ts: TS, taskId: 't', version: 1,
  goal: 'Write a market report on 5 competitors. Use public data only.',
  targetState: 'a report',
  milestones: [
    { id: 'collect', description: 'collect the competitors', dependsOn: [], validator: { type: 'marker' } },
    { id: 'write', description: 'write the report', dependsOn: ['collect'], validator: { type: 'marker' } },
  ],
  anchors: [],
  constraints: [
    { id: 'c1', text: 'Only use public sources', hard: true, source: 'task' },
    { id: 'c2', text: 'Prefer recent data', hard: false, source: 'goal' },
  ],
};

function step(seq: number, runId: string | null = 'run-1'): StepEvent {
  return { schema: 'wayfinder.step.v1', eventId: `e${seq}`, tenantId: 'acme', taskId: 't', agentId: 'a', runId, seq, ts: TS, kind: 'action', action: { tool: 'search', args: { q: 'x' } } } as StepEvent;
}

function at(milestoneId: string, completed: string[], method: Position['method'] = 'signal'): Position {
  return { milestoneId, completed, progress: completed.length / 2, confidence: 1, method };
}

describe('an agent trail', () => {
  it('admits each step of a run once, and starts over on a new run', () => {
    const trail = newTrail([]);
    expect(admitStep(trail, step(0))).toBe(true);
    trail.lastSeq = 0;
    expect(admitStep(trail, step(0))).toBe(false);
    expect(admitStep(trail, step(1))).toBe(true);
    trail.lastSeq = 5;
    expect(admitStep(trail, step(3))).toBe(false);
    expect(admitStep(trail, step(0, 'run-2'))).toBe(true);
    expect(trail).toMatchObject({ runId: 'run-2', lastSeq: -1 });
  });

  it('checkpoints the newest completed milestone once, with the id the correction engine names, and clears the failure', () => {
    const trail = newTrail([]);
    trail.lastFailure = 'looping on search';
    moveTo(trail, at('collect', []));
    const before = advanceOnMap(trail, map, step(3), at('collect', []));
    expect(before.checkpoint).toBeUndefined();
    expect(trail.lastFailure).toBe('looping on search');

    moveTo(trail, at('write', ['collect']));
    const done = advanceOnMap(trail, map, step(7), at('write', ['collect']));
    expect(done.checkpoint).toEqual({ id: checkpointId('t', 'collect', 7), milestoneId: 'collect', seq: 7, state: done.state });
    expect(done.checkpoint?.id).toBe('cp:t:collect:7');
    expect(done.newlyCompleted).toEqual(['collect']);
    expect(trail.lastFailure).toBeUndefined();
    markCheckpointed(trail, done.newlyCompleted);
    expect(advanceOnMap(trail, map, step(8), at('write', ['collect'])).checkpoint).toBeUndefined();
  });

  it('keeps the last known position on an unknown one, and renders no STATE before a position', () => {
    const trail = newTrail(['collect']);
    expect(trailState(trail, map)).toBe('');
    moveTo(trail, at('write', ['collect']));
    moveTo(trail, at('', [], 'unknown'));
    expect(trail.position?.milestoneId).toBe('write');
    expect(trailState(trail, map)).toContain('STATE');
    expect(stateChanged(trail, trailState(trail, map))).toBe(true);
    trail.lastStateText = trailState(trail, map);
    expect(stateChanged(trail, trailState(trail, map))).toBe(false);
  });

  it('takes a remembered output as the conclusion, and as a reference when it is one (bounded)', () => {
    const trail = newTrail([]);
    expect(concludeWith(trail, '  found   5 vendors \n', false)).toBe('found 5 vendors');
    expect(trail.references).toEqual([]);
    for (let i = 0; i < MAX_REFERENCES + 3; i++) concludeWith(trail, `see https://example.com/${i}`, true);
    expect(trail.references).toHaveLength(MAX_REFERENCES);
    expect(trail.references.at(-1)).toBe(`see https://example.com/${MAX_REFERENCES + 2}`);
    expect(logEntry(step(4), 'collect', trail.conclusion)).toMatchObject({ seq: 4, milestoneId: 'collect', kind: 'action', conclusion: trail.conclusion });
  });

  it('is kept alive every interval: the first step only starts the clock', () => {
    const trail = newTrail([]);
    expect(keepAliveDue(trail, 1_000, 100)).toBe(false);
    expect(keepAliveDue(trail, 1_099, 100)).toBe(false);
    expect(keepAliveDue(trail, 1_100, 100)).toBe(true);
    expect(keepAliveDue(trail, 1_150, 100)).toBe(false);
    expect(trail.keptAliveAt).toBe(1_100);
  });
});

describe('STATE after a correction', () => {
  it('puts one failure line last, replacing an older one', () => {
    const once = withFailure('STATE\nStage 1/2', 'looping   on\nsearch');
    expect(once).toBe('STATE\nStage 1/2\nlast attempt failed: looping on search');
    expect(withFailure(once, 'off goal')).toBe('STATE\nStage 1/2\nlast attempt failed: off goal');
  });

  it("restores the checkpoint's STATE (or the current one) at least as new as the stored snapshot", () => {
    const correction = { atSeq: 9, reason: 'off goal' };
    expect(stateAfterCorrection('STATE cp', { seq: 12, text: 'STATE now' }, correction)).toEqual({ seq: 12, text: 'STATE cp\nlast attempt failed: off goal' });
    expect(stateAfterCorrection(undefined, { seq: 4, text: 'STATE now' }, correction)).toEqual({ seq: 9, text: 'STATE now\nlast attempt failed: off goal' });
    expect(stateAfterCorrection(undefined, undefined, correction)).toBeUndefined();
  });
});

describe('the charter from events', () => {
  it('is written from the first map, unchanged by the same map again, and keeps feedback numbers on a newer map', () => {
    const first = charterOnMap(undefined, map);
    expect(first).toEqual(charterFromMap(map));
    expect(charterOnMap(first, map)).toBeUndefined();
    const withUser = appendFeedback(charterFromMap(map), 'Do not cite Wikipedia');
    const newer = { ...map, goal: 'Write a market report on 6 competitors.', constraints: [...map.constraints, { id: 'c3', text: 'Never contact them', hard: true, source: 'goal' as const }] };
    const merged = mergeCharter(withUser, newer);
    expect(merged.goal).toBe('Write a market report on 6 competitors.');
    expect(merged.constraints.map((c) => [c.n, c.text])).toEqual([
      [1, 'Only use public sources'],
      [2, 'Do not cite Wikipedia'],
      [3, 'Never contact them'],
    ]);
    expect(charterOnMap(withUser, newer)).toEqual(merged);
  });

  it('takes feedback as the next constraint once, from the map charter (or an empty one) when none is stored', () => {
    const fromMap = charterOnFeedback(undefined, 'Do not cite Wikipedia', map);
    expect(fromMap?.constraints.map((c) => c.source)).toEqual(['task', 'feedback']);
    expect(charterOnFeedback(fromMap, ' do not cite wikipedia ', map)).toBeUndefined();
    expect(charterOnFeedback(undefined, 'Be brief', undefined)).toEqual({ goal: '', constraints: [{ n: 1, text: 'Be brief', source: 'feedback' }] });
  });
});
