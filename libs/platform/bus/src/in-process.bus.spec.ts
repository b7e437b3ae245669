// Runs the Bus contract on the in-process adapter; in-process.bus specifics live in their own specs.
import { busContract } from './bus.contract';
import { InProcessBroker, InProcessBus } from './in-process.bus';

const brokers = new Map<string, InProcessBroker>();
let spaces = 0;

busContract('InProcessBus', () => ({
  waitMs: 10_000,
  newSpace: async () => {
    const space = `space-${++spaces}`;
    brokers.set(space, new InProcessBroker());
    return space;
  },
  open: (space) => new InProcessBus({ broker: brokers.get(space), retry: { maxAttempts: 3, initialBackoffMs: 5, maxBackoffMs: 20 } }),
}));
