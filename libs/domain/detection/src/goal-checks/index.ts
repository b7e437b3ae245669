/**
 * The goal checks of issue 18 as plug-in detectors of the engine: constraint rules, claims checked against
 * the tools (issue #32), failed verification, the agent's self-check and plans against the map. Every worker builds them with the embedder it shares.
 */
import type { SyncEmbedder } from '@wayfinder/embeddings';
import type { StepDetector } from '../types';
import { AlignCheckDetector } from './align-check.detector';
import { ConstraintRulesDetector } from './constraint-rules.detector';
import { PlanOffGoalDetector } from './plan-off-goal.detector';
import { UnverifiedClaimDetector } from './unverified-claim.detector';
import { VerificationRepeatDetector } from './verification-repeat.detector';

export function goalCheckDetectors(embedder: SyncEmbedder): StepDetector[] {
  // The claim checker judges a `done` before verification_failed_repeat reads its verdict.
  const claims = new UnverifiedClaimDetector();
  return [new ConstraintRulesDetector(embedder), claims, new VerificationRepeatDetector(claims), new AlignCheckDetector(), new PlanOffGoalDetector(embedder)];
}

export { AlignCheckDetector, ConstraintRulesDetector, PlanOffGoalDetector, UnverifiedClaimDetector, VerificationRepeatDetector };
export { readClaim, type ClaimKind } from './claim-phrases';
export { alignCheckBlock, readAlignCheck, type AlignAnswer, type AlignQuestion } from './align-check-block';
export { contentTerms, type SubgoalMatch } from './plan-off-goal.detector';
export { textSimilarity, type TextSimilarity } from './text-similarity';
