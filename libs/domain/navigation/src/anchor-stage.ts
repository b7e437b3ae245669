/**
 * Dynamic anchors in the Navigator: a feedback or plan step proposing to replace or retarget an anchor
 * (@wayfinder/cognitive-map `proposeAnchorChanges`) gives a `proposed` AnchorChange; with the policy's
 * `anchors.autoAccept` it is applied at once (the map's next version), otherwise it waits (bounded) for a
 * `confirmed` or `rejected` AnchorChange — what the gateway publishes for
 * `POST /v1/agents/{agentId}/anchors/{anchorId}`. The task-parser service applies the same decisions in
 * distributed mode.
 */
import { ANCHOR_CHANGE_SCHEMA, type AnchorChange, type CognitiveMap, type PolicySettings, type StepEvent } from '@wayfinder/contracts';
import { applyAnchorChange, proposeAnchorChanges, type AnchorChangeProposal } from '@wayfinder/cognitive-map';
import type { PolicySubject } from './ladder-stage';

export interface AnchorOutcome {
  /** The map's new version, when a change was applied. */
  map?: CognitiveMap;
  /** Proposals made and decisions applied, as events. */
  changes: AnchorChange[];
}

const MAX_PENDING = 1024;

/** The AnchorChange event of a proposal (kind `proposed`, or `confirmed` when a policy accepts it). */
export function anchorChangeEvent(tenantId: string, taskId: string, p: AnchorChangeProposal, kind: AnchorChange['kind'], ts: string, source: AnchorChange['source'] = p.source): AnchorChange {
  return {
    schema: ANCHOR_CHANGE_SCHEMA,
    eventId: `${p.proposalId}:${kind}`,
    tenantId,
    ts,
    taskId,
    agentId: p.agentId,
    anchorId: p.anchorId,
    proposalId: p.proposalId,
    kind,
    to: p.to,
    reason: p.reason,
    source,
    atSeq: p.atSeq,
  };
}

export class AnchorStage {
  private readonly pending = new Map<string, AnchorChangeProposal & { tenantId: string; taskId: string }>();

  constructor(private readonly policyOf: (subject: PolicySubject) => PolicySettings) {}

  onStep(step: StepEvent, map: CognitiveMap): AnchorOutcome {
    const proposals = proposeAnchorChanges(map, step);
    if (proposals.length === 0) return { changes: [] };
    const auto = this.policyOf(step).anchors.autoAccept;
    const changes: AnchorChange[] = [];
    let current = map;
    for (const p of proposals) {
      changes.push(anchorChangeEvent(step.tenantId, step.taskId, p, 'proposed', step.ts));
      if (auto) {
        current = applyAnchorChange(current, { ...p, acceptedBy: 'policy' }, { ts: step.ts });
        changes.push(anchorChangeEvent(step.tenantId, step.taskId, p, 'confirmed', step.ts, 'policy'));
      } else {
        this.pending.set(p.proposalId, { ...p, tenantId: step.tenantId, taskId: step.taskId });
        if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value as string);
      }
    }
    return current === map ? { changes } : { map: current, changes };
  }

  /** A person's decision on a proposal (or a direct change with `to`). */
  onDecision(change: AnchorChange, map: CognitiveMap | undefined): AnchorOutcome {
    const proposal = this.pending.get(change.proposalId);
    if (proposal && (proposal.tenantId !== change.tenantId || proposal.taskId !== change.taskId)) return { changes: [] };
    if (change.kind === 'rejected') {
      this.pending.delete(change.proposalId);
      return { changes: [change] };
    }
    if (change.kind !== 'confirmed' || !map) return { changes: [] };
    const to = Object.keys(change.to).length > 0 ? change.to : proposal?.to;
    if (!to) return { changes: [] };
    this.pending.delete(change.proposalId);
    const next = applyAnchorChange(map, { proposalId: change.proposalId, anchorId: change.anchorId, to, reason: change.reason, acceptedBy: 'user' }, { ts: change.ts });
    return next === map ? { changes: [] } : { map: next, changes: [change] };
  }

  pendingFor(tenantId: string, taskId: string): AnchorChangeProposal[] {
    return [...this.pending.values()].filter((p) => p.tenantId === tenantId && p.taskId === taskId);
  }
}
