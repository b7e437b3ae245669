/**
 * The detector state of one (tenant, agent): its runs (history is per run) and the eventIds applied
 * recently, for idempotence under at-least-once delivery.
 */
import type { RunState } from './run-state';

const RECENT_EVENTS = 8;
const NONE: readonly never[] = Object.freeze([]);
/** Runs kept per agent; sub-agent runs interleave, older ones are evicted least recently used first. */
export const MAX_RUNS_PER_AGENT = 8;

export class AgentState {
  readonly tenantId: string;
  readonly agentId: string;
  /** Run ids and states, least recently used first (two small arrays cost far less than a Map). */
  runKeys: string[] = NONE as unknown as string[];
  runStates: RunState[] = NONE as unknown as RunState[];
  /** Hashes of the last applied eventIds, masked to 30 bits so V8 keeps them as small integers. */
  recentEvents: number[] = [0, 0, 0, 0, 0, 0, 0, 0];
  recentHead = 0;

  constructor(tenantId: string, agentId: string) {
    this.tenantId = tenantId;
    this.agentId = agentId;
  }

  /** True when the eventId (by hash) was applied recently. */
  seenEvent(eventHash: number): boolean {
    return this.recentEvents.includes((eventHash & 0x3fffffff) | 1);
  }

  rememberEvent(eventHash: number): void {
    this.recentEvents[this.recentHead] = (eventHash & 0x3fffffff) | 1;
    this.recentHead = (this.recentHead + 1) % RECENT_EVENTS;
  }

  /** The state of a run, created when new; the least recently used run is evicted past the limit. */
  run(runKey: string, create: (runKey: string) => RunState): RunState {
    const keys = this.runKeys;
    const last = keys.length - 1;
    if (last >= 0 && keys[last] === runKey) return this.runStates[last];
    const index = keys.indexOf(runKey);
    let run: RunState;
    if (index >= 0) {
      run = this.runStates[index];
      keys.splice(index, 1);
      this.runStates.splice(index, 1);
    } else {
      run = create(runKey);
      if (keys.length === 0) {
        // Exactly sized: most agents only ever have one run.
        this.runKeys = [runKey];
        this.runStates = [run];
        return run;
      }
      if (keys.length >= MAX_RUNS_PER_AGENT) {
        keys.shift();
        this.runStates.shift();
      }
    }
    keys.push(runKey);
    this.runStates.push(run);
    return run;
  }

  *runs(): IterableIterator<[string, RunState]> {
    for (let i = 0; i < this.runKeys.length; i++) yield [this.runKeys[i], this.runStates[i]];
  }
}
