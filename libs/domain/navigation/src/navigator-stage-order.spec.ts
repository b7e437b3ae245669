import type { CognitiveMap, Correction, Deviation, Position, StepEvent } from '@wayfinder/contracts';
import type { CorrectionStage, DetectionStage, LocalizationStage } from './navigation-ports';
import { Navigator } from './navigator';

const TS = '2026-01-01T00:00:00.000Z';

function step(seq: number, taskId = 'task-1', agentId = 'agent-1'): StepEvent {
  return {
    schema: 'wayfinder.step.v1',
    eventId: `e${seq}`,
    tenantId: 't',
    ts: TS,
    agentId,
    taskId,
    seq,
    kind: 'action',
    action: { tool: 'search', args: { q: String(seq) } },
  };
}

function map(taskId: string, version = 1): CognitiveMap {
  return {
    schema: 'wayfinder.map.v1',
    eventId: `m-${taskId}-${version}`,
    tenantId: 't',
    ts: TS,
    taskId,
    version,
    goal: 'find things',
    targetState: 'things found',
    milestones: [{ id: 'm1', description: 'find', dependsOn: [], validator: { type: 'marker' } }],
    anchors: [],
    constraints: [],
  };
}

function deviation(atSeq: number): Deviation {
  return {
    schema: 'wayfinder.deviation.v1',
    eventId: `d${atSeq}`,
    tenantId: 't',
    ts: TS,
    agentId: 'agent-1',
    taskId: 'task-1',
    runId: null,
    detector: 'generic_repeat',
    level: 'warning',
    count: 11,
    atSeq,
    loopStartSeq: 0,
    evidence: {},
    message: 'repeat',
  };
}

function hint(d: Deviation): Correction {
  return {
    schema: 'wayfinder.correction.v1',
    eventId: `c-${d.eventId}`,
    tenantId: 't',
    ts: TS,
    agentId: d.agentId,
    taskId: d.taskId,
    runId: null,
    deviationIds: [d.eventId],
    severity: 'mild',
    atSeq: d.atSeq,
    reason: 'loop',
    action: 'hint',
    hint: { text: 'stop repeating' },
  };
}

/** A localizer that advances progress by 0.1 per step, to tell instances apart. */
function countingLocalizer(calls: string[], label: string): LocalizationStage {
  let n = 0;
  return {
    onStep: (s) => {
      calls.push(`localize:${label}:${s.seq}`);
      n++;
      return { milestoneId: 'm1', completed: [], progress: Math.min(1, n / 10), confidence: 1, method: 'signal' };
    },
  };
}

describe('Navigator', () => {
  it('runs localization, detection and correction in that order and returns what each produced', () => {
    const calls: string[] = [];
    const seen: Array<Position | undefined> = [];
    const detection: DetectionStage = {
      onStep: (s, position) => {
        calls.push(`detect:${s.seq}`);
        seen.push(position);
        return s.seq === 2 ? [deviation(2)] : [];
      },
    };
    const correction: CorrectionStage = {
      onStep: (s, _position, m) => {
        calls.push(`correct-step:${s.seq}:${m?.taskId}`);
      },
      onDeviation: (d) => {
        calls.push(`correct-deviation:${d.atSeq}`);
        return { corrections: [hint(d)], escalations: [] };
      },
    };
    const navigator = new Navigator({ detection, correction, localizerFor: (m) => countingLocalizer(calls, m.taskId) });
    navigator.setMap('t', map('task-1'));

    const first = navigator.onStep(step(1));
    const second = navigator.onStep(step(2));

    expect(calls).toEqual([
      'localize:task-1:1',
      'detect:1',
      'correct-step:1:task-1',
      'localize:task-1:2',
      'detect:2',
      'correct-step:2:task-1',
      'correct-deviation:2',
    ]);
    expect(first).toEqual({ localized: expect.objectContaining({ progress: 0.1 }), deviations: [], corrections: [], withheld: [], escalations: [], selfHeals: [] });
    expect(second.localized?.progress).toBeCloseTo(0.2);
    expect(second.deviations).toEqual([deviation(2)]);
    expect(second.corrections.map((c) => c.action)).toEqual(['hint']);
    expect(seen[1]).toBe(second.localized);
  });

  it('does not localize steps of a task without a map, and still detects', () => {
    const detection: DetectionStage = { onStep: (s) => [deviation(s.seq)] };
    const localizerFor = jest.fn();
    const navigator = new Navigator({ detection, localizerFor });
    const result = navigator.onStep(step(4, 'other-task'));
    expect(result.localized).toBeUndefined();
    expect(result.deviations).toHaveLength(1);
    expect(result.corrections).toEqual([]);
    expect(localizerFor).not.toHaveBeenCalled();
  });

  it('keeps one localizer per agent and task, and resets them when the map changes version', () => {
    const calls: string[] = [];
    let built = 0;
    const navigator = new Navigator({
      detection: { onStep: () => [] },
      localizerFor: () => countingLocalizer(calls, `L${++built}`),
    });
    navigator.setMap('t', map('task-1'));
    navigator.onStep(step(1, 'task-1', 'a'));
    navigator.onStep(step(2, 'task-1', 'b'));
    navigator.onStep(step(3, 'task-1', 'a'));
    expect(calls).toEqual(['localize:L1:1', 'localize:L2:2', 'localize:L1:3']);

    navigator.setMap('t', map('task-1', 1)); // same version: positions are kept
    navigator.onStep(step(4, 'task-1', 'a'));
    navigator.setMap('t', map('task-1', 2));
    navigator.onStep(step(5, 'task-1', 'a'));
    navigator.setMap('t', map('task-1', 1)); // an older map never replaces a newer one
    expect(navigator.mapOf('t', 'task-1')?.version).toBe(2);
    expect(calls.slice(3)).toEqual(['localize:L1:4', 'localize:L3:5']);
  });

  it('routes deviations from tick() through the correction ladder', () => {
    const navigator = new Navigator({
      detection: { onStep: () => [], tick: (now) => (now > 1000 ? [deviation(9)] : []) },
      correction: { onStep: () => undefined, onDeviation: (d) => ({ corrections: [hint(d)], escalations: [] }) },
    });
    expect(navigator.tick(500).deviations).toEqual([]);
    const late = navigator.tick(2000);
    expect(late.deviations).toHaveLength(1);
    expect(late.corrections[0].deviationIds).toEqual(['d9']);
  });

  it('navigates a redelivered step once: at or below the last seq of its agent, task and run, nothing runs again', () => {
    const detected: number[] = [];
    const navigator = new Navigator({ detection: { onStep: (s) => (detected.push(s.seq), []) }, localizerFor: () => ({ onStep: () => ({ milestoneId: 'm1', completed: [], progress: 0.1, confidence: 1, method: 'signal' }) }) });
    navigator.setMap('t', map('task-1'));
    navigator.onStep(step(1));
    navigator.onStep(step(2));
    expect(navigator.onStep(step(2)).duplicate).toBe(true);
    expect(navigator.onStep(step(1)).duplicate).toBe(true);
    expect(navigator.onStep({ ...step(1), runId: 'sub-run' }).duplicate).toBeUndefined(); // another run of the agent
    expect(detected).toEqual([1, 2, 1]);
  });

  it('drops suppressed deviations before the ladder, and withholds a shadow tenant\'s corrections and escalations', () => {
    const corrected: string[] = [];
    const correction: CorrectionStage = {
      onStep: () => undefined,
      onDeviation: (d) => (corrected.push(d.eventId), { corrections: [hint(d)], escalations: [{ eventId: `esc-${d.eventId}` } as never] }),
    };
    const suppressedIds = new Set(['d1']);
    const shadowTenants = new Set<string>();
    const navigator = new Navigator({ detection: { onStep: (s) => [deviation(s.seq)] }, correction, suppressed: (d) => suppressedIds.has(d.eventId), shadow: (t) => shadowTenants.has(t) });
    const first = navigator.onStep(step(1));
    expect(first.deviations).toEqual([]);
    expect(corrected).toEqual([]);
    const sent = navigator.onStep(step(2));
    expect(sent.corrections).toHaveLength(1);
    expect(sent.escalations).toHaveLength(1);
    shadowTenants.add('t');
    const shadowed = navigator.onStep(step(3));
    expect(shadowed.corrections).toEqual([]);
    expect(shadowed.withheld.map((c) => c.deviationIds)).toEqual([['d3']]);
    expect(shadowed.escalations).toEqual([]);
  });
});
