/**
 * Dynamic anchors: a `feedback` or `plan` step that replaces or retargets one of the map's anchors ("only
 * 4 competitors have public data: cover 4 competitors instead of 5", "把竞品数量改为4个", or a structured
 * `attributes.anchorChange`) becomes a proposal; an accepted one (policy `anchors.autoAccept`, or a
 * person's confirmation) is the map's next version. The anchor keeps its id, so validators and progress
 * tallies follow it and from then on measure against the new target; the map records the change and its
 * reason for the goal board. Pure.
 */
import type { Anchor, AnchorPatch, AppliedAnchorChange, CognitiveMap, StepEvent } from '@wayfinder/contracts';
import { extractAnchors } from './anchors';
import { shortHash } from './ids';
import { mapEventId } from './task-parser';

export interface AnchorChangeProposal {
  proposalId: string;
  anchorId: string;
  from: Anchor;
  to: AnchorPatch;
  reason: string;
  source: 'feedback' | 'plan';
  atSeq: number;
  agentId: string;
}

const MAX_CHANGES = 32;
const MAX_REASON = 2048;
/** A change cue: without one, a number in feedback is information, not a new target. */
const CHANGE_CUE = /\b(?:instead(?: of)?|replac\w*|swap\w*|switch\w*|chang\w*|retarget\w*|reduc\w*|lower\w*|rais\w*|increas\w*|adjust\w*|only need|make it|now)\b|改为|改成|换成|替换|代替|调整为|调整到|降为|降到|减少到|减到|增加到|提高到|只需|只要|改用/i;

function unitKey(unit: string): string {
  return unit.toLowerCase().replace(/(?:ies)$/, 'y').replace(/(?:es|s)$/, '').trim();
}

function sameUnit(a: string, b: string): boolean {
  const x = unitKey(a);
  const y = unitKey(b);
  return x === y || (x.length >= 2 && y.length >= 2 && (x.endsWith(y) || y.endsWith(x)));
}

function proposalId(taskId: string, anchorId: string, eventId: string): string {
  return `ac:${shortHash(`${taskId}\u0000${anchorId}\u0000${eventId}`)}`;
}

/** The anchor changes a text proposes against a map's anchors. */
export function anchorChangesInText(map: Pick<CognitiveMap, 'anchors'>, text: string): Array<{ anchor: Anchor; to: AnchorPatch }> {
  if (!CHANGE_CUE.test(text) || map.anchors.length === 0) return [];
  const found = extractAnchors(text);
  const out: Array<{ anchor: Anchor; to: AnchorPatch }> = [];
  for (const anchor of map.anchors) {
    // "4 competitors instead of 5": several numbers with the same unit; the new one is not the current target.
    const candidates = found.filter((f) => sameUnit(f.unit, anchor.unit) && f.target !== anchor.target);
    const next = candidates[0];
    if (next) {
      out.push({ anchor, to: { target: next.target, comparator: next.comparator, text: next.text } });
      continue;
    }
    // "replace competitors with vendors (5 vendors)": the old unit named, a new unit counted.
    const mentioned = new RegExp(`\\b${unitKey(anchor.unit).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i').test(text) || text.includes(anchor.unit);
    const replacement = found.find((f) => !map.anchors.some((a) => sameUnit(a.unit, f.unit)));
    if (mentioned && replacement && /\breplac\w*|\binstead\b|\bswap\w*|换成|替换|代替|改用/i.test(text)) {
      out.push({ anchor, to: { unit: replacement.unit, target: replacement.target, comparator: replacement.comparator, text: replacement.text } });
    }
  }
  return out;
}

/** The anchor-change proposals of a feedback or plan step (structured attribute first, then text). */
export function proposeAnchorChanges(map: CognitiveMap, step: StepEvent): AnchorChangeProposal[] {
  if (step.kind !== 'feedback' && step.kind !== 'plan') return [];
  const source = step.kind;
  const make = (anchor: Anchor, to: AnchorPatch, reason: string): AnchorChangeProposal => ({
    proposalId: proposalId(map.taskId, anchor.id, step.eventId),
    anchorId: anchor.id,
    from: anchor,
    to,
    reason: reason.replace(/\s+/g, ' ').trim().slice(0, MAX_REASON) || `${source} at seq ${step.seq}`,
    source,
    atSeq: step.seq,
    agentId: step.agentId,
  });
  const structured = step.attributes?.anchorChange;
  if (structured && typeof structured === 'object') {
    const anchor = map.anchors.find((a) => a.id === structured.anchorId);
    if (!anchor) return [];
    const { anchorId: _id, reason, ...to } = structured;
    void _id;
    const text = step.kind === 'feedback' ? step.feedback.text : step.plan.subgoals.map((s) => s.text).join('; ');
    return isNoop(anchor, to) ? [] : [make(anchor, to, reason ?? text)];
  }
  const texts = step.kind === 'feedback' ? [step.feedback.text] : step.plan.subgoals.map((s) => s.text);
  const out: AnchorChangeProposal[] = [];
  for (const text of texts) {
    for (const { anchor, to } of anchorChangesInText(map, text)) {
      if (!out.some((p) => p.anchorId === anchor.id)) out.push(make(anchor, to, text));
    }
  }
  return out;
}

function isNoop(anchor: Anchor, to: AnchorPatch): boolean {
  return (
    (to.target === undefined || to.target === anchor.target) &&
    (to.unit === undefined || to.unit === anchor.unit) &&
    (to.text === undefined || to.text === anchor.text) &&
    (to.comparator === undefined || to.comparator === anchor.comparator)
  );
}

export interface AcceptedAnchorChange {
  proposalId: string;
  anchorId: string;
  to: AnchorPatch;
  reason: string;
  acceptedBy: 'policy' | 'user';
}

/**
 * The map's next version with the anchor changed; the same map when the anchor is unknown, the change
 * changes nothing, or the proposal was already applied (a redelivered decision).
 */
export function applyAnchorChange(map: CognitiveMap, change: AcceptedAnchorChange, meta: { ts?: string } = {}): CognitiveMap {
  const from = map.anchors.find((a) => a.id === change.anchorId);
  if (!from || isNoop(from, change.to)) return map;
  if ((map.anchorChanges ?? []).some((c) => c.proposalId === change.proposalId)) return map;
  const to: Anchor = {
    ...from,
    ...(change.to.target !== undefined && { target: change.to.target }),
    ...(change.to.unit !== undefined && { unit: change.to.unit }),
    ...(change.to.comparator !== undefined && { comparator: change.to.comparator }),
    text: change.to.text ?? (change.to.target !== undefined || change.to.unit !== undefined ? `${change.to.target ?? from.target} ${change.to.unit ?? from.unit}` : from.text),
  };
  const version = map.version + 1;
  const applied: AppliedAnchorChange = { proposalId: change.proposalId, anchorId: from.id, from, to, reason: change.reason.slice(0, MAX_REASON), acceptedBy: change.acceptedBy, version };
  return {
    ...map,
    version,
    eventId: mapEventId(map.taskId, version),
    ...(meta.ts !== undefined && { ts: meta.ts }),
    anchors: map.anchors.map((a) => (a.id === from.id ? to : a)),
    targetState: map.targetState.split(`${from.target} ${from.unit}`).join(`${to.target} ${to.unit}`).slice(0, 2048),
    anchorChanges: [...(map.anchorChanges ?? []), applied].slice(-MAX_CHANGES),
  };
}
