/**
 * What a milestone's validator asks the tools to have shown (PROJECT-RULES.md P9). A validator is a tree;
 * its *evidence leaves* (`regex`, `jsonField`, `toolSucceeded`) are matched against every step of the run
 * as it arrives and remembered once seen, so a claim of `done` can be judged without keeping the steps.
 * The claim itself is no evidence for itself: `marker` leaves are left out, and `anchorCount` leaves are
 * the localizer's (the detectors see no anchor tallies), so a validator made only of those is unchecked.
 */
import type { CognitiveMap, StepEvent, Validator } from '@wayfinder/contracts';
import { evaluateValidator } from '@wayfinder/cognitive-map';

export interface EvidenceLeaf {
  /** `<milestoneId>:<path in the tree>`: what the run state remembers once seen. */
  key: string;
  validator: Validator;
}

/** The result of judging a claim: verified, contradicted (with what is missing) or unchecked. */
export type ClaimVerdict = { verdict: 'verified' } | { verdict: 'unchecked' } | { verdict: 'contradicted'; missing: EvidenceLeaf[] };

const MAX_LEAVES_PER_MILESTONE = 16;

function isEvidence(v: Validator): boolean {
  return v.type === 'regex' || v.type === 'jsonField' || v.type === 'toolSucceeded';
}

/** The evidence leaves of a milestone's validator, at most MAX_LEAVES_PER_MILESTONE. */
export function evidenceLeaves(milestoneId: string, validator: Validator): EvidenceLeaf[] {
  const out: EvidenceLeaf[] = [];
  const walk = (v: Validator, path: string) => {
    if (out.length >= MAX_LEAVES_PER_MILESTONE) return;
    if (isEvidence(v)) out.push({ key: `${milestoneId}:${path}`, validator: v });
    else if (v.type === 'all' || v.type === 'any') v.of.forEach((c, i) => walk(c, `${path}.${i}`));
  };
  walk(validator, '0');
  return out;
}

/** The leaves of the map's milestones that this step satisfies and were not seen yet. */
export function leavesSeenIn(step: StepEvent, map: CognitiveMap, seen: ReadonlySet<string>): string[] {
  if (step.kind !== 'observation' && step.kind !== 'action' && !(step.kind === 'message' && step.message.role === 'assistant')) return [];
  const out: string[] = [];
  for (const m of map.milestones) {
    for (const leaf of evidenceLeaves(m.id, m.validator)) {
      if (!seen.has(leaf.key) && evaluateValidator(leaf.validator, step, { milestoneId: m.id })) out.push(leaf.key);
    }
  }
  return out;
}

/** Judges a claim that milestone `milestoneId` is done against the leaves seen so far. */
export function judgeDone(map: CognitiveMap, milestoneId: string, seen: ReadonlySet<string>): ClaimVerdict {
  const milestone = map.milestones.find((m) => m.id === milestoneId);
  if (!milestone) return { verdict: 'unchecked' };
  const missing: EvidenceLeaf[] = [];
  const judge = (v: Validator, path: string): boolean | undefined => {
    if (isEvidence(v)) {
      const key = `${milestoneId}:${path}`;
      if (seen.has(key)) return true;
      missing.push({ key, validator: v });
      return false;
    }
    if (v.type !== 'all' && v.type !== 'any') return undefined;
    const parts = v.of.map((c, i) => judge(c, `${path}.${i}`)).filter((r): r is boolean => r !== undefined);
    if (parts.length === 0) return undefined;
    return v.type === 'all' ? parts.every(Boolean) : parts.some(Boolean);
  };
  const result = judge(milestone.validator, '0');
  if (result === undefined) return { verdict: 'unchecked' };
  return result ? { verdict: 'verified' } : { verdict: 'contradicted', missing };
}

/** One line naming what a leaf asks for, for evidence and hints. */
export function describeLeaf(v: Validator): string {
  switch (v.type) {
    case 'regex': {
      const where = v.on === 'observation' ? 'a tool result' : v.on === 'message' ? 'an output' : v.on === 'action' ? 'a call' : 'a tool result or output';
      return `${where} matching /${v.pattern.slice(0, 120)}/${v.flags ?? ''}`;
    }
    case 'jsonField':
      if (v.equals !== undefined) return `a result with ${v.path} = ${JSON.stringify(v.equals)}`;
      return v.exists === false ? `a result without ${v.path}` : `a result with the field ${v.path}`;
    case 'toolSucceeded':
      return `a successful call of ${v.tool}`;
    default:
      return v.type;
  }
}
