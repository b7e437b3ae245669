// The replan lists the remaining milestones from the current position to the target, in dependency order.
import type { CognitiveMap } from '@wayfinder/contracts';
import { buildReplan, topologicalOrder } from './replan';
import { testMap } from './ladder-scenario.testing';

function diamond(): CognitiveMap {
  const m = (id: string, dependsOn: string[]) => ({ id, description: `do ${id}`, dependsOn, validator: { type: 'marker' as const } });
  // Listed out of dependency order on purpose.
  return { ...testMap(), milestones: [m('d', ['b', 'c']), m('b', ['a']), m('a', []), m('c', ['a'])] };
}

describe('replan builder', () => {
  it('starts at the current milestone and leaves completed ones out', () => {
    const body = buildReplan({ map: testMap(), currentMilestoneId: 'm3', completed: ['m1', 'm2'], failureReason: 'rollback did not heal' });
    expect(body).toMatchObject({ fromMilestoneId: 'm3', remaining: ['m3', 'm4'] });
    expect(body.reason).toContain('rollback did not heal');
    expect(body.reason).toContain('m3 → m4');
  });

  it('orders the remaining milestones of a DAG by their dependencies', () => {
    expect(topologicalOrder(diamond().milestones).map((m) => m.id)).toEqual(['a', 'b', 'c', 'd']);
    const body = buildReplan({ map: diamond(), currentMilestoneId: 'c', completed: ['a', 'b'], failureReason: 'stuck' });
    expect(body.remaining).toEqual(['c', 'd']);
  });

  it('without a map it still names where it replans from', () => {
    const body = buildReplan({ currentMilestoneId: 'm2', completed: [], failureReason: 'stuck' });
    expect(body).toMatchObject({ fromMilestoneId: 'm2', remaining: [] });
  });
});
