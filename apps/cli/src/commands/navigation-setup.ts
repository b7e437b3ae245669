/**
 * Shared by `replay` and `eval`: turns --profile and --policy into a resolved policy (the overlay is
 * validated by @wayfinder/detection's validatePolicy, so a bad field is a one-line usage error naming it)
 * and hands out fresh in-process Navigators built on it.
 */
import type { InvalidLineReporter } from './invalid-line-reporter';
import type { StepLineHandlers } from './step-lines';
import { promises as fs } from 'node:fs';
import { PROFILE_NAMES, type PolicySettings, type ProfileName, type TaskSpec } from '@wayfinder/contracts';
import { parseTask } from '@wayfinder/cognitive-map';
import { validatePolicy } from '@wayfinder/detection';
import { createNavigator, type Navigator } from '@wayfinder/navigation';
import { UsageError } from '../command';

export interface NavigationRequest {
  policyFile?: string;
  profile?: string;
  /** Run the correction ladder too (replay --corrections, eval). */
  corrections: boolean;
}

export interface NavigationSetup {
  readonly profile: ProfileName;
  readonly policy: PolicySettings;
  newNavigator(): Navigator;
}

export async function prepareNavigation(request: NavigationRequest): Promise<NavigationSetup> {
  const profile = parseProfile(request.profile);
  const raw = request.policyFile === undefined ? {} : await readPolicyFile(request.policyFile);
  // --profile beats a profile named in the file; validating the combination catches e.g. a warning
  // threshold in the file above the critical threshold of the profile chosen on the command line.
  const combined = profile !== undefined && isPlainObject(raw) ? { ...raw, profile } : raw;
  const validation = validatePolicy(combined);
  if (!validation.ok) throw new UsageError(`${request.policyFile ?? '--profile'}: ${validation.error}`);
  const policy = validation.policy;
  return {
    profile: policy.profile,
    policy,
    newNavigator: () => createNavigator({ policy, corrections: request.corrections }),
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
