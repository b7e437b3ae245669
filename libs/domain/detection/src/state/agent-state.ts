/**
 * The detector state of one (tenant, agent): its runs (history is per run) and the eventIds applied
 * recently, for idempotence under at-least-once delivery. Shaped for 100k+ agents per worker: the
 * current run and the recent eventIds are plain fields, arrays exist only for agents with several runs.
 */
import type { RunState } from './run-state';

export const RECENT_EVENTS = 8;
/** Runs kept per agent; sub-agent runs interleave, older ones are evicted least recently used first. */
export const MAX_RUNS_PER_AGENT = 8;

function mask(eventHash: number): number {
  // 30 bits so V8 keeps them as small integers; never 0, the empty slot.
  return (eventHash & 0x3fffffff) | 1;
}

export class AgentState {
  readonly tenantId: string;
  readonly agentId: string;
  /** The most recently used run and its key. */
  currentKey = '';
  current: RunState | null = null;
  /** The other runs, least recently used first; null while the agent has had only one run. */
  olderKeys: string[] | null = null;
  olderRuns: RunState[] | null = null;
  // Hashes of the last RECENT_EVENTS applied eventIds, in fields: an array would cost twice the bytes.
  private e0 = 0;
  private e1 = 0;
  private e2 = 0;
  private e3 = 0;
  private e4 = 0;
  private e5 = 0;
  private e6 = 0;
  private e7 = 0;
  recentHead = 0;
  // The hosted plug-ins' states of this agent (engine's AgentSlots: drift, semantic_repetition, the goal
  // checks), in fields: a tenant → agent map per plug-in cost ~55 bytes an agent each (issue #14).
  private p0: unknown = undefined;
  private p1: unknown = undefined;
  private p2: unknown = undefined;
  private p3: unknown = undefined;
  // Five fields: the navigator hosts five (semantic_repetition, drift, constraint rules, unverified_claim,
  // verification_failed_repeat); a fifth in pMore cost ~100 bytes an agent that uses it (an array grown).
  private p4: unknown = undefined;
  /** Slots past the fifth, for engines with more hosted plug-ins. */
  private pMore: unknown[] | null = null;

  constructor(tenantId: string, agentId: string) {
    this.tenantId = tenantId;
    this.agentId = agentId;
  }

  /** True when the eventId (by hash) was applied recently. */
  seenEvent(eventHash: number): boolean {
    const h = mask(eventHash);
    return h === this.e0 || h === this.e1 || h === this.e2 || h === this.e3 || h === this.e4 || h === this.e5 || h === this.e6 || h === this.e7;
  }

  rememberEvent(eventHash: number): void {
    this.setRecent(this.recentHead, mask(eventHash));
    this.recentHead = (this.recentHead + 1) % RECENT_EVENTS;
  }

  /** The recent event hashes by ring slot (for the codec). */
  get recentEvents(): number[] {
    return [this.e0, this.e1, this.e2, this.e3, this.e4, this.e5, this.e6, this.e7];
  }

  set recentEvents(hashes: number[]) {
    for (let i = 0; i < RECENT_EVENTS; i++) this.setRecent(i, hashes[i] ?? 0);
  }

  private setRecent(slot: number, value: number): void {
    switch (slot) {
      case 0: this.e0 = value; break;
      case 1: this.e1 = value; break;
      case 2: this.e2 = value; break;
      case 3: this.e3 = value; break;
      case 4: this.e4 = value; break;
      case 5: this.e5 = value; break;
      case 6: this.e6 = value; break;
      default: this.e7 = value; break;
    }
  }

  /** A hosted plug-in's state of this agent (see `setSlot`). */
  slot(index: number): unknown {
    switch (index) {
      case 0: return this.p0;
      case 1: return this.p1;
      case 2: return this.p2;
      case 3: return this.p3;
      case 4: return this.p4;
      default: return this.pMore?.[index - 5];
    }
  }

  setSlot(index: number, value: unknown): void {
    switch (index) {
      case 0: this.p0 = value; break;
      case 1: this.p1 = value; break;
      case 2: this.p2 = value; break;
      case 3: this.p3 = value; break;
      case 4: this.p4 = value; break;
      default:
        if (value === undefined && !this.pMore) return;
        (this.pMore ??= [])[index - 5] = value;
    }
  }

  /** Takes over another agent object's plug-in slots (the engine replaces its own state on import, not theirs). */
  takeSlots(from: AgentState): void {
    this.p0 = from.p0;
    this.p1 = from.p1;
    this.p2 = from.p2;
    this.p3 = from.p3;
    this.p4 = from.p4;
    this.pMore = from.pMore;
  }

  /** The state of a run, made the most recently used; undefined when the agent has none by that key. */
  find(runKey: string): RunState | undefined {
    if (this.current && this.currentKey === runKey) return this.current;
    const keys = this.olderKeys;
    const runs = this.olderRuns;
    if (!keys || !runs) return undefined;
    const index = keys.indexOf(runKey);
    if (index < 0) return undefined;
    const run = runs[index];
    keys.splice(index, 1);
    runs.splice(index, 1);
    this.demoteCurrent();
    this.currentKey = runKey;
    this.current = run;
    return run;
  }

  /** Adds a new run as the most recently used; the least recently used is evicted past the limit. */
  add(runKey: string, run: RunState): RunState {
    this.demoteCurrent();
    if (this.olderKeys && this.olderRuns && this.olderKeys.length >= MAX_RUNS_PER_AGENT) {
      this.olderKeys.shift();
      this.olderRuns.shift();
    }
    this.currentKey = runKey;
    this.current = run;
    return run;
  }

  private demoteCurrent(): void {
    if (!this.current) return;
    if (!this.olderKeys || !this.olderRuns) {
      this.olderKeys = [];
      this.olderRuns = [];
    }
    this.olderKeys.push(this.currentKey);
    this.olderRuns.push(this.current);
    this.current = null;
  }

  /** Runs with their keys, least recently used first. */
  *runs(): IterableIterator<[string, RunState]> {
    if (this.olderKeys && this.olderRuns) for (let i = 0; i < this.olderKeys.length; i++) yield [this.olderKeys[i], this.olderRuns[i]];
    if (this.current) yield [this.currentKey, this.current];
  }
}
