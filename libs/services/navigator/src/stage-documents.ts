/**
 * Agents' state written by the separate stage services (state-localizer 'localizer', detector-worker
 * 'detector', correction-engine 'correction' documents; DESIGN §7) is still read by the navigator
 * service: an agent with no navigation document yet gets one composed from its stage documents, so a
 * deployment that switches to the one-pass pipeline keeps every agent's position, detectors and ladder.
 * New documents are written as navigation documents only (navigation-state.ts of @wayfinder/navigation).
 */
import { encodeNavigationState, LOCALIZATION_VERSION, type LocalizationDocument } from '@wayfinder/navigation';
import { utf8Bytes } from '@wayfinder/contracts';
import type { AgentRef, AgentStateStore, AgentStateStores, AgentStateWrite, StoredAgentState } from '@wayfinder/service-core';

/** The state-localizer's document (LocalizerStates, version 1). */
interface LocalizerStageDocument {
  v: number;
  tenantId: string;
  agentId: string;
  tasks: Array<[string, { localizer: unknown; runId: string | null; lastSeq: number }]>;
}

/** What `versions` answers for an agent with stage documents and no navigation document: not 0, so it is loaded. */
const STAGE_DOCUMENTS_ONLY = -1;

/** One navigation document composed from the stage documents (any may be absent); undefined when all are. */
export function composeFromStageDocuments(agent: AgentRef, stages: { localizer?: Uint8Array; detector?: Uint8Array; correction?: Uint8Array }): Uint8Array | undefined {
  if (!stages.localizer && !stages.detector && !stages.correction) return undefined;
  let localization: Uint8Array | undefined;
  if (stages.localizer) {
    const doc = JSON.parse(new TextDecoder().decode(stages.localizer)) as LocalizerStageDocument;
    if (doc?.v !== 1 || !Array.isArray(doc.tasks)) throw new Error(`localizer state: unsupported document version ${String(doc?.v)}`);
    if (doc.tenantId !== agent.tenantId || doc.agentId !== agent.agentId) throw new Error('localizer state: document of another agent');
    const converted: LocalizationDocument = { v: LOCALIZATION_VERSION, tasks: doc.tasks.map(([taskId, e]) => [taskId, { snapshot: e.localizer, version: 0, runId: e.runId, lastSeq: e.lastSeq }]) };
    localization = utf8Bytes(JSON.stringify(converted));
  }
  return encodeNavigationState({ localization, detection: stages.detector, correction: stages.correction });
}

/**
 * The navigator's store: navigation documents ('navigation' kind), falling back to the stage documents
 * for an agent that has none yet. The fallback costs one more round trip, only for batches with agents
 * never written by the navigator.
 */
export class NavigationStateStore implements AgentStateStore {
  private readonly own: AgentStateStore;
  private readonly stages: { localizer: AgentStateStore; detector: AgentStateStore; correction: AgentStateStore };

  constructor(
    stores: AgentStateStores,
    /** Told when an agent's stage documents cannot be read: that agent starts over. */
    private readonly onUnreadable: (agent: AgentRef, error: unknown) => void,
  ) {
    this.own = stores('navigation');
    this.stages = { localizer: stores('localizer'), detector: stores('detector'), correction: stores('correction') };
  }

  async versions(agents: readonly AgentRef[]): Promise<number[]> {
    const versions = await this.own.versions(agents);
    const fresh = agents.filter((_, i) => versions[i] === 0);
    if (fresh.length === 0) return versions;
    const [l, d, c] = await Promise.all([this.stages.localizer.versions(fresh), this.stages.detector.versions(fresh), this.stages.correction.versions(fresh)]);
    let j = 0;
    return versions.map((v) => {
      if (v !== 0) return v;
      const k = j++;
      return l[k] || d[k] || c[k] ? STAGE_DOCUMENTS_ONLY : 0;
    });
  }

  async load(agents: readonly AgentRef[]): Promise<Array<StoredAgentState | undefined>> {
    const loaded = await this.own.load(agents);
    const missing = agents.map((_, i) => i).filter((i) => !loaded[i]);
    if (missing.length === 0) return loaded;
    const refs = missing.map((i) => agents[i]);
    const [l, d, c] = await Promise.all([this.stages.localizer.load(refs), this.stages.detector.load(refs), this.stages.correction.load(refs)]);
    missing.forEach((i, k) => {
      try {
        const state = composeFromStageDocuments(agents[i], { localizer: l[k]?.state, detector: d[k]?.state, correction: c[k]?.state });
        // Version 0: nothing is stored as a navigation document yet, so the first versioned write expects 0.
        if (state) loaded[i] = { version: 0, state };
      } catch (error) {
        this.onUnreadable(agents[i], error);
      }
    });
    return loaded;
  }

  save(writes: readonly AgentStateWrite[]): Promise<number[]> {
    return this.own.save(writes);
  }
}
