// The hold-until-map rule of the state localizer (routeStep), on every combination of its facts.
import { routeStep, type StepRoute, type StepRouteFacts } from './pending-steps';

function route(duplicate: boolean, hasMap: boolean, agentWaiting: boolean, taskMapless: boolean): StepRoute {
  return routeStep({ duplicate, hasMap, agentWaiting, taskMapless } satisfies StepRouteFacts);
}

describe('routeStep (hold until the map)', () => {
  it('never localizes a duplicate twice, whatever else holds', () => {
    for (const hasMap of [true, false]) for (const waiting of [true, false]) for (const mapless of [true, false]) expect(route(true, hasMap, waiting, mapless)).toBe('duplicate');
  });

  it('localizes a step whose map is known and whose agent has nothing waiting', () => {
    expect(route(false, true, false, false)).toBe('localize');
    expect(route(false, true, false, true)).toBe('localize');
  });

  it('holds a step behind earlier held steps of its agent, even when the map is known, so order is kept', () => {
    expect(route(false, true, true, false)).toBe('hold');
    expect(route(false, false, true, true)).toBe('hold');
  });

  it('holds a step with no map yet, and passes it as unknown once its task timed out waiting', () => {
    expect(route(false, false, false, false)).toBe('hold');
    expect(route(false, false, false, true)).toBe('unknown');
  });
});
