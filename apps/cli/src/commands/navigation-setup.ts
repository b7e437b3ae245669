/**
 * Shared by `replay` and `eval`: turns --profile and --policy into a resolved policy (the overlay is
 * validated by @wayfinder/detection's validatePolicy, so a bad field is a one-line usage error naming it)
 * and hands out fresh in-process Navigators built on it.
 */
import type { InvalidLineReporter } from './invalid-line-reporter';
import type { StepLineHandlers } from './step-lines';
import { promises as fs } from 'node:fs';
import { EMBEDDER_NAMES, PROFILE_NAMES, type EmbedderName, type PolicySettings, type ProfileName, type TaskSpec } from '@wayfinder/contracts';
import { parseTask } from '@wayfinder/cognitive-map';
import { embedderChoices, validatePolicy } from '@wayfinder/detection';
import type { EmbeddingCache } from '@wayfinder/embeddings';
import { createNavigator, type Navigator } from '@wayfinder/navigation';
import { createEmbeddingCache } from '@wayfinder/onnx-embedders';
import { UsageError } from '../command';

export interface NavigationRequest {
  policyFile?: string;
  profile?: string;
  /** Run the correction ladder too (replay --corrections, eval). */
  corrections: boolean;
  /** --embedder: the embedder of drift, semantic_repetition and monologue (tool arguments keep hashing). */
  embedder?: string;
  /** Where an absent model's warning goes (stderr). */
  warn?: (message: string) => void;
}

export interface NavigationSetup {
  readonly profile: ProfileName;
  readonly policy: PolicySettings;
  /** The embedding cache shared by the navigators (hashing plus the semantic embedders the policy chose and found). */
  readonly vectors: EmbeddingCache;
  /** True when a detector is served by a semantic embedder: steps must then be prepared (navigator.prepare) first. */
  readonly semantic: boolean;
  newNavigator(): Navigator;
}

export async function prepareNavigation(request: NavigationRequest): Promise<NavigationSetup> {
  const profile = parseProfile(request.profile);
  const raw = request.policyFile === undefined ? {} : await readPolicyFile(request.policyFile);
  // --profile beats a profile named in the file; validating the combination catches e.g. a warning
  // threshold in the file above the critical threshold of the profile chosen on the command line.
  let combined = profile !== undefined && isPlainObject(raw) ? { ...raw, profile } : raw;
  const embedder = parseEmbedder(request.embedder);
  if (embedder !== undefined && isPlainObject(combined)) {
    const fromFile = isPlainObject(combined.embedders) ? combined.embedders : {};
    combined = { ...combined, embedders: { ...fromFile, drift: embedder, semanticRepetition: embedder, monologue: embedder } };
  }
  const validation = validatePolicy(combined);
  if (!validation.ok) throw new UsageError(`${request.policyFile ?? '--profile'}: ${validation.error}`);
  const policy = validation.policy;
  const choices = embedderChoices(policy);
  const vectors = await createEmbeddingCache(choices, { warn: request.warn });
  return {
    profile: policy.profile,
    policy,
    vectors,
    semantic: choices.some((c) => vectors.served(c) !== 'hashing'),
    newNavigator: () => createNavigator({ policy, corrections: request.corrections, vectors }),
  };
}

/**
 * What replay and eval do with the lines of a step file: steps go to `onStep`; a TaskSpec line installs
 * its task's map (a task that cannot become a map is reported like a bad line); bad lines are reported.
 */
export function navigationHandlers(navigator: Navigator, invalid: InvalidLineReporter, onStep: StepLineHandlers['onStep']): StepLineHandlers {
  return {
    onStep,
    onInvalid: (file, line, error) => invalid.report(file, line, error),
    onTask(task: TaskSpec, file: string, line: number) {
      const parsed = parseTask(task);
      if (parsed.ok) navigator.setMap(task.tenantId, parsed.value);
      else invalid.report(file, line, `task ${task.taskId}: ${parsed.error.message}`);
    },
  };
}

function parseEmbedder(value: string | undefined): EmbedderName | undefined {
  if (value === undefined) return undefined;
  if (!(EMBEDDER_NAMES as readonly string[]).includes(value)) throw new UsageError(`--embedder must be one of ${EMBEDDER_NAMES.join(', ')}; got '${value}'`);
  return value as EmbedderName;
}

function parseProfile(value: string | undefined): ProfileName | undefined {
  if (value === undefined) return undefined;
  if (!(PROFILE_NAMES as readonly string[]).includes(value)) {
    throw new UsageError(`--profile must be one of ${PROFILE_NAMES.join(', ')}; got '${value}'`);
  }
  return value as ProfileName;
}

async function readPolicyFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--policy ${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--policy ${file}: invalid JSON: ${(error as Error).message}`);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
