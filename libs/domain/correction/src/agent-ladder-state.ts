/**
 * An agent's correction state as a versioned document (DESIGN §7): every run's ladder (rungs, limits
 * used, freeze flag, the last verified checkpoint, watches, the deviations and corrections an escalation
 * reports), so that a correction engine restarted or moved to another instance decides exactly what it
 * would have decided without the restart. JSON: Sets and Maps become arrays.
 *
 * Version 2 writes each event (deviation, correction, escalation) once, in `events`, and the ladders
 * refer to it by index (one event id, one entry): a correction sits in the reported list, the episode, a
 * watch and the decisions at once, and was written up to four times in version 1. An event is immutable once made, so its JSON
 * is kept beside it (a WeakMap) and an agent written back after every batch does not stringify the same
 * events again (issue #17). Version 1 documents are still read.
 */
import { CORRECTION_SCHEMA, DEVIATION_SCHEMA, ESCALATION_SCHEMA, utf8Bytes, type Correction, type Deviation, type Escalation } from '@wayfinder/contracts';
import type { AgentLadder, Episode, MilestoneLadder, SelfHealWatch } from './agent-ladder';
import type { Rung } from './ladder';

export const LADDER_STATE_VERSION = 2;
const READABLE_VERSIONS = new Set([1, LADDER_STATE_VERSION]);

/** An event in a version 2 document: its index in `events`. */
type Ref = number;
type Event = Correction | Deviation | Escalation;

/** Either an event itself (version 1) or its index (version 2). */
type Slot<E> = E | Ref;

interface EpisodeDoc extends Omit<Episode, 'patterns' | 'lastCorrection'> {
  patterns: string[];
  lastCorrection: Slot<Correction>;
}

interface MilestoneDoc extends Omit<MilestoneLadder, 'episode' | 'lastRungByPattern'> {
  episode?: EpisodeDoc;
  lastRungByPattern: Array<[string, Rung]>;
}

interface LadderDoc extends Omit<AgentLadder, 'milestones' | 'seenDeviationIds' | 'decisions' | 'deviations' | 'corrections' | 'watches'> {
  milestones: Array<[string, MilestoneDoc]>;
  seenDeviationIds: string[];
  decisions: Array<[string, { corrections: Array<Slot<Correction>>; escalations: Array<Slot<Escalation>> }]>;
  deviations: Array<Slot<Deviation>>;
  corrections: Array<Slot<Correction>>;
  watches: Array<Omit<SelfHealWatch, 'correction'> & { correction: Slot<Correction> }>;
}

interface StateDoc {
  v: number;
  events?: Event[];
  ladders: LadderDoc[];
}

const decoder = new TextDecoder();
const eventJson = new WeakMap<object, string>();

function isEscalation(event: Event): event is Escalation {
  return event.schema === ESCALATION_SCHEMA;
}

/**
 * An event's JSON, made once per event object. An escalation names its deviations and the corrections
 * tried by event id (they are events of the document too: the agent's own lists, copied at the freeze), so
 * a frozen agent's document does not hold each of them twice.
 */
function jsonOf(event: Event): string {
  let json = eventJson.get(event);
  if (json === undefined) {
    json = JSON.stringify(isEscalation(event) ? { ...event, deviations: event.deviations.map((d) => d.eventId), correctionsTried: event.correctionsTried.map((c) => c.eventId) } : event);
    eventJson.set(event, json);
  }
  return json;
}

export function encodeLadders(ladders: readonly AgentLadder[]): Uint8Array {
  const events: string[] = [];
  // By event id (unique within the agent's events): copies of one event, as a version 1 document reads, are written once too.
  const indexOf = new Map<string, Ref>();
  const ref = <E extends Event>(event: E): Ref => {
    const id = `${event.schema} ${event.eventId}`;
    let i = indexOf.get(id);
    if (i === undefined) {
      // What an escalation names goes in first: a reader resolves each event from those before it.
      if (isEscalation(event)) {
        event.deviations.forEach(ref);
        event.correctionsTried.forEach(ref);
      }
      i = events.length;
      indexOf.set(id, i);
      events.push(jsonOf(event));
    }
    return i;
  };
  const docs: LadderDoc[] = ladders.map((l) => ({
    ...l,
    milestones: [...l.milestones].map(([key, m]) => [
      key,
      {
        // In the order milestoneLadder() makes them: a document read back writes the same bytes.
        corrections: m.corrections,
        rollbacks: m.rollbacks,
        lastRungByPattern: [...m.lastRungByPattern],
        episode: m.episode ? { ...m.episode, patterns: [...m.episode.patterns], lastCorrection: ref(m.episode.lastCorrection) } : undefined,
      },
    ]),
    seenDeviationIds: [...l.seenDeviationIds],
    decisions: [...l.decisions].map(([id, d]) => [id, { corrections: d.corrections.map(ref), escalations: d.escalations.map(ref) }]),
    deviations: l.deviations.map(ref),
    corrections: l.corrections.map(ref),
    watches: l.watches.map((w) => ({ ...w, correction: ref(w.correction) })),
  }));
  return utf8Bytes(`{"v":${LADDER_STATE_VERSION},"events":[${events.join(',')}],"ladders":${JSON.stringify(docs)}}`);
}

/** Throws on a document this build cannot read (the caller starts the agent over). */
export function decodeLadders(bytes: Uint8Array): AgentLadder[] {
  const doc = JSON.parse(decoder.decode(bytes)) as StateDoc;
  if (!doc || !READABLE_VERSIONS.has(doc.v) || !Array.isArray(doc.ladders)) {
    throw new Error(`correction state: unsupported document version ${String(doc?.v)}`);
  }
  const events = doc.v === 1 ? [] : resolveEscalations(doc.events);
  // Version 2 holds indexes into `events` (one object per event, shared as in the engine); version 1 the events.
  const event = <E extends Event>(slot: Slot<E>): E => {
    if (typeof slot !== 'number') return slot;
    const found = events[slot];
    if (found === undefined) throw new Error(`correction state: no event ${slot}`);
    return found as E;
  };
  return doc.ladders.map((l) => {
    if (typeof l.tenantId !== 'string' || typeof l.agentId !== 'string' || !Array.isArray(l.milestones)) throw new Error('correction state: malformed ladder');
    return {
      ...l,
      milestones: new Map(
        l.milestones.map(([key, m]) => [
          key,
          {
            corrections: m.corrections,
            rollbacks: m.rollbacks,
            lastRungByPattern: new Map(m.lastRungByPattern),
            episode: m.episode ? { ...m.episode, patterns: new Set(m.episode.patterns), lastCorrection: event(m.episode.lastCorrection) } : undefined,
          },
        ]),
      ),
      seenDeviationIds: new Set(l.seenDeviationIds),
      decisions: new Map(l.decisions.map(([id, d]) => [id, { corrections: d.corrections.map(event), escalations: d.escalations.map(event) }])),
      deviations: l.deviations.map(event),
      corrections: l.corrections.map(event),
      watches: l.watches.map((w) => ({ ...w, correction: event(w.correction) })),
    };
  });
}

/** A version 2 document's events, each escalation's deviations and corrections tried resolved from the events before it. */
function resolveEscalations(events: Event[] | undefined): Event[] {
  if (!Array.isArray(events)) throw new Error('correction state: malformed events');
  const byId = new Map<string, Event>();
  return events.map((event) => {
    if (isEscalation(event)) {
      const named = <E extends Event>(schema: string, id: unknown): E => {
        const found = byId.get(`${schema} ${String(id)}`);
        if (!found) throw new Error(`correction state: escalation ${event.eventId} names no event ${String(id)}`);
        return found as E;
      };
      event = {
        ...event,
        deviations: event.deviations.map((id) => named<Deviation>(DEVIATION_SCHEMA, id)),
        correctionsTried: event.correctionsTried.map((id) => named<Correction>(CORRECTION_SCHEMA, id)),
      };
    }
    byId.set(`${event.schema} ${event.eventId}`, event);
    return event;
  });
}
