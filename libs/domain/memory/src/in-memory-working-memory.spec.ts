// The in-memory WorkingMemory passes the port contract (with a fake clock for TTLs).
import { InMemoryWorkingMemory } from './in-memory-working-memory';
import { workingMemoryContract } from './testing';

workingMemoryContract(({ ttlMs }) => {
  let now = 1_000_000;
  const memory = new InMemoryWorkingMemory({ ttlMs, now: () => now });
  return {
    memory,
    advanceTime: async (ms: number) => {
      now += ms;
    },
  };
});
