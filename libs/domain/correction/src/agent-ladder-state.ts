/**
 * An agent's correction state as a versioned document (DESIGN §7): every run's ladder (rungs, limits
 * used, freeze flag, the last verified checkpoint, watches, the deviations and corrections an escalation
 * reports), so that a correction engine restarted or moved to another instance decides exactly what it
 * would have decided without the restart. JSON: Sets and Maps become arrays.
 */
import type { AgentLadder, Episode, MilestoneLadder } from './agent-ladder';
import type { Rung } from './ladder';

export const LADDER_STATE_VERSION = 1;

interface EpisodeDoc extends Omit<Episode, 'patterns'> {
  patterns: string[];
}

interface MilestoneDoc extends Omit<MilestoneLadder, 'episode' | 'lastRungByPattern'> {
  episode?: EpisodeDoc;
  lastRungByPattern: Array<[string, Rung]>;
}

interface LadderDoc extends Omit<AgentLadder, 'milestones' | 'seenDeviationIds' | 'decisions'> {
  milestones: Array<[string, MilestoneDoc]>;
  seenDeviationIds: string[];
  decisions: Array<[string, AgentLadder['decisions'] extends Map<string, infer D> ? D : never]>;
}

interface StateDoc {
  v: number;
  ladders: LadderDoc[];
}

export function encodeLadders(ladders: readonly AgentLadder[]): Uint8Array {
  const doc: StateDoc = {
    v: LADDER_STATE_VERSION,
    ladders: ladders.map((l) => ({
      ...l,
      milestones: [...l.milestones].map(([key, m]) => [
        key,
        {
          ...m,
          episode: m.episode ? { ...m.episode, patterns: [...m.episode.patterns] } : undefined,
          lastRungByPattern: [...m.lastRungByPattern],
        },
      ]),
      seenDeviationIds: [...l.seenDeviationIds],
      decisions: [...l.decisions],
    })),
  };
  return new TextEncoder().encode(JSON.stringify(doc));
}

/** Throws on a document this build cannot read (the caller starts the agent over). */
export function decodeLadders(bytes: Uint8Array): AgentLadder[] {
  const doc = JSON.parse(new TextDecoder().decode(bytes)) as StateDoc;
  if (!doc || doc.v !== LADDER_STATE_VERSION || !Array.isArray(doc.ladders)) {
    throw new Error(`correction state: unsupported document version ${String(doc?.v)}`);
  }
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
            episode: m.episode ? { ...m.episode, patterns: new Set(m.episode.patterns) } : undefined,
            lastRungByPattern: new Map(m.lastRungByPattern),
          },
        ]),
      ),
      seenDeviationIds: new Set(l.seenDeviationIds),
      decisions: new Map(l.decisions),
    };
  });
}
