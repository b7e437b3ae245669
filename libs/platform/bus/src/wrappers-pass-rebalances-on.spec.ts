/**
 * The bus wrappers (SettlingBus here; TracedBus and the runtime's CoLocatedBus have the same rule) tell
 * their users about the inner bus's rebalances, and only when the inner bus has any: a service's durable
 * state follows rebalances through them (DESIGN §7).
 */
import type { AssignmentListener, Bus } from './bus';
import { InProcessBus } from './in-process.bus';
import { SettlingBus } from './settling.bus';

/** An in-process bus that also reports rebalances, as KafkaBus does. */
function rebalancing(): { bus: Bus; rebalance(groupId: string, partitions: number[]): void } {
  const listeners: AssignmentListener[] = [];
  const bus = new InProcessBus() as Bus;
  bus.onAssignment = (l) => listeners.push(l);
  return { bus, rebalance: (groupId, partitions) => listeners.forEach((l) => l(groupId, { 'wayfinder.steps.v1': partitions })) };
}

describe('bus wrappers and rebalances', () => {
  const wrap = {
    SettlingBus: (inner: Bus) => new SettlingBus(inner),
  };

  for (const [name, make] of Object.entries(wrap)) {
    it(`${name} passes the inner bus's rebalances on`, () => {
      const inner = rebalancing();
      const seen: Array<[string, readonly number[]]> = [];
      const wrapped = make(inner.bus);
      wrapped.onAssignment?.((group, assignment) => seen.push([group, assignment['wayfinder.steps.v1'] ?? []]));
      inner.rebalance('wayfinder.state-localizer', [0, 2]);
      expect(seen).toEqual([['wayfinder.state-localizer', [0, 2]]]);
    });

    it(`${name} has no rebalances over a bus without any`, () => {
      expect(make(new InProcessBus()).onAssignment).toBeUndefined();
    });
  }
});
