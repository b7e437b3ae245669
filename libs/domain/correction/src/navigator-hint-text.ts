/**
 * Hint wording for the detectors of issue 18 (verification, the agent's self-check, plans, delegation
 * cycles), kept apart from hint-text.ts, which calls it for the detectors it does not word itself.
 * Evidence keys read: milestone | milestoneId, failures, answer, offGoal ({id, text}[]), cycle (agent ids),
 * claim (done | finished | blocked) and missing.
 */
import type { Deviation, JsonValue } from '@wayfinder/contracts';
import { truncate } from './replan';

const MAX_PREVIEW = 200;

function str(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && value.length > 0 ? truncate(value, MAX_PREVIEW) : undefined;
}

function offGoalNames(deviation: Deviation): string {
  const list = deviation.evidence['offGoal'];
  if (!Array.isArray(list)) return 'some sub-goals';
  const names = list
    .map((s) => (s && typeof s === 'object' && !Array.isArray(s) ? `${str(s['id']) ?? '?'} ("${str(s['text']) ?? ''}")` : undefined))
    .filter((s): s is string => s !== undefined);
  return names.length > 0 ? names.join(', ') : 'some sub-goals';
}

function cycleText(deviation: Deviation): string {
  const cycle = deviation.evidence['cycle'];
  return Array.isArray(cycle) && cycle.length > 0 ? cycle.filter((a) => typeof a === 'string').join(' → ') : 'other agents';
}

/** The claim unverified_claim did not believe, and what the tools did not show (its `missing`). */
function claimProblem(deviation: Deviation): string {
  const e = deviation.evidence;
  const missing = str(e['missing']) ?? 'evidence from the tools';
  const again = deviation.count > 1 ? ` (unverified claim ${deviation.count} of the run)` : '';
  switch (e['claim']) {
    case 'done':
      return `You said milestone ${str(e['milestoneId']) ?? '(unknown)'} is done, but its check found no evidence: missing ${missing}${again}.`;
    case 'finished':
      return `You said you are finished, but these milestones have no evidence yet: ${missing}${again}.`;
    default:
      return `You said you are blocked, but the tools do not show it: missing ${missing}${again}.`;
  }
}

function claimNextAction(deviation: Deviation, milestoneText: string): string {
  const e = deviation.evidence;
  const missing = str(e['missing']) ?? 'the evidence';
  switch (e['claim']) {
    case 'done':
    case 'finished':
      return `produce ${missing} with the tools (run the check, show the result) before claiming completion, then continue with ${milestoneText}.`;
    default:
      return `try ${milestoneText} another way with the tools; report blocked only with the failed calls and their errors.`;
  }
}

/** What went wrong, for the detectors worded here; undefined for the others. */
export function navigatorProblem(deviation: Deviation): string | undefined {
  const e = deviation.evidence;
  switch (deviation.detector) {
    case 'verification_failed_repeat':
      return `Milestone ${str(e['milestoneId'] ?? e['milestone']) ?? '(unknown)'} failed its verification ${deviation.count} times.`;
    case 'align_check_failed':
      return `Your own [ALIGN-CHECK] says no: "${str(e['answer']) ?? deviation.message}".`;
    case 'plan_off_goal':
      return `Your plan has sub-goals that serve no anchor or milestone of the task: ${offGoalNames(deviation)}.`;
    case 'cross_agent_cycle':
      return `The work is being handed around a cycle of agents (${cycleText(deviation)}) ${deviation.count} times without any milestone progress.`;
    case 'unverified_claim':
      return claimProblem(deviation);
    default:
      return undefined;
  }
}

/** The concrete next action, for the detectors worded here; undefined for the others. */
export function navigatorNextAction(deviation: Deviation, milestoneText: string): string | undefined {
  switch (deviation.detector) {
    case 'verification_failed_repeat':
      return `stop retrying ${milestoneText} the same way; state why the verification fails and what you need.`;
    case 'align_check_failed':
      return `go back to the last verified milestone and redo ${milestoneText} the way your self-check says it should be done.`;
    case 'plan_off_goal':
      return `drop ${offGoalNames(deviation)} from the plan, or justify in one sentence which anchor or milestone each serves, then work on ${milestoneText}.`;
    case 'cross_agent_cycle':
      return `do not delegate this sub-task again; do it yourself with what you have, or report that it is blocked, and work on ${milestoneText}.`;
    case 'unverified_claim':
      return claimNextAction(deviation, milestoneText);
    default:
      return undefined;
  }
}
