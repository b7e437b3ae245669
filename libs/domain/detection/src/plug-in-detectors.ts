/**
 * The detectors that plug into the detection engine beside its built-in ones (drift and the goal checks),
 * assembled here once: the Navigator (libs/domain/navigation) and the detector-worker stage service both
 * take this list, so they run the same detector set.
 */
import type { SyncEmbedder, VectorSource } from '@wayfinder/embeddings';
import { DriftDetector } from './drift';
import { goalCheckDetectors } from './goal-checks';
import type { StepDetector } from './types';

export function plugInDetectors(vectors: VectorSource, embedder: SyncEmbedder): StepDetector[] {
  return [new DriftDetector(vectors), ...goalCheckDetectors(embedder)];
}
