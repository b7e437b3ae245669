/**
 * The hint text builder (the mild rung). A useful hint is specific: it names the tool, the repeated
 * arguments or error, the milestone, the constraints, and one concrete next action. "You seem stuck" is not
 * a hint. Evidence keys read (set by the detectors, previews already redacted and bounded): tool,
 * args | argsPreview, previousArgsPreview, changedFields, error | errorPreview, pairedTool,
 * pairedArgsPreview, repeatedPreview, lastMessagePreview, differentErrors, fruitless, acrossRuns, period, milestone, similarity,
 * identicalArgs, lastIdentical, pending, sameCall, volatileIdsMasked, phrase, actionsSincePrevious, constraint, status.
 */
import type { CognitiveMap, Deviation, JsonValue } from '@wayfinder/contracts';
import { navigatorNextAction, navigatorProblem } from './navigator-hint-text';
import { truncate } from './replan';

export interface HintInput {
  deviation: Deviation;
  map?: CognitiveMap;
  milestoneId: string | null;
  /** Set when the same problem returns after the agent had healed. */
  relapse?: boolean;
  /** Why an earlier correction did not hold, when there was one. */
  failureReason?: string;
}

const MAX_PREVIEW = 200;
const MAX_CONSTRAINTS = 5;
export const MAX_HINT_CHARS = 8192;

function text(value: JsonValue | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  return s.length > 0 ? truncate(s, MAX_PREVIEW) : undefined;
}

function evidenceOf(deviation: Deviation) {
  const e = deviation.evidence;
  return {
    tool: text(e['tool']),
    args: text(e['args'] ?? e['argsPreview']),
    error: text(e['error'] ?? e['errorPreview']),
    pairedTool: text(e['pairedTool']),
    pairedArgs: text(e['pairedArgsPreview']),
    previousArgs: text(e['previousArgsPreview']),
    changed: text(e['changedFields']),
    repeated: text(e['repeatedPreview']),
    lastMessage: text(e['lastMessagePreview']),
    differentErrors: e['differentErrors'] === true,
    /** near_duplicate_calls: true when every repeated call had the same args, false when they changed; absent in older deviations. */
    identicalArgs: typeof e['identicalArgs'] === 'boolean' ? (e['identicalArgs'] as boolean) : undefined,
    /** near_duplicate_calls: the chain was reworded, but its newest call repeated the previous args exactly. */
    lastIdentical: e['lastIdentical'] === true,
    fruitless: e['fruitless'] === true,
    /** near_duplicate_calls (P1, one batch): identical calls issued before any came back, how many. */
    pending: typeof e['pending'] === 'number' ? (e['pending'] as number) : undefined,
    acrossRuns: typeof e['acrossRuns'] === 'number' ? (e['acrossRuns'] as number) : undefined,
    /** error_repeat (P10): the very same call failed each time, whatever the errors said. */
    sameCall: e['sameCall'] === true,
    /** near_duplicate_calls (P11): the calls were identical once fresh ids and time stamps were masked. */
    masked: e['volatileIdsMasked'] === true,
    /** content_repetition (P4): a short phrase back to back rather than a sentence. */
    phrase: e['phrase'] === true,
    similarity: typeof e['similarity'] === 'number' ? (e['similarity'] as number) : undefined,
    constraint: text(e['constraint']),
    status: text(e['status']),
  };
}

/** What went wrong, in one sentence naming the tool and the repeated arguments or error. */
function problem(deviation: Deviation): string {
  const { tool, args, error, pairedTool, pairedArgs, previousArgs, changed, repeated, lastMessage, differentErrors, identicalArgs, fruitless, acrossRuns, sameCall, masked, phrase, similarity, constraint, status, pending, lastIdentical } = evidenceOf(deviation);
  const n = deviation.count;
  const withArgs = args ? ` with the same arguments ${args}` : '';
  const call = tool ? `\`${tool}\`` : 'the same tool';
  switch (deviation.detector) {
    case 'generic_repeat':
      return `You called ${call}${withArgs} ${n} times and got the same result each time.`;
    case 'known_poll_no_progress':
      return `You polled ${call}${withArgs} ${n} times and its status did not change${status ? ` (still ${status})` : ''}.`;
    case 'ping_pong':
      return `You are alternating between ${call}${args ? ` ${args}` : ''} and \`${pairedTool ?? 'another tool'}\`${pairedArgs ? ` ${pairedArgs}` : ''} (${n} times) and neither side changes.`;
    case 'unknown_tool_repeat':
      return `You retried ${call} ${n} times but that tool does not exist${error ? ` (error: ${error})` : ''}.`;
    case 'error_repeat':
      if (fruitless) return `${call} came back with nothing found or an error ${n} times in a row, with changing arguments${args ? ` (last arguments ${args})` : ''}.`;
      if (sameCall && deviation.evidence['sameError'] !== true) return `You ran ${call}${args ? ` with the same arguments ${args}` : ' unchanged'} ${n} times in a row and it failed every time${error ? ` (latest error: ${error})` : ''}.`;
      if (acrossRuns !== undefined) return `${call} failed with the same error ${n} times across ${acrossRuns} runs${error ? `: ${error}` : ''}${args ? ` (last arguments ${args})` : ''}; starting over did not change it.`;
      return differentErrors
        ? `${call} failed ${n} times in a row, with changing arguments or errors${error ? ` (latest error: ${error})` : ''}${args ? ` (last arguments ${args})` : ''}.`
        : `${call} failed ${n} times with the same error${error ? `: ${error}` : ''}${args ? ` (last arguments ${args})` : ''}.`;
    case 'near_duplicate_calls': {
      // Says what happened: "identical" when the args never changed, "reworded" only when they did (the
      // changed fields or the previous args show it); an older deviation without either says neither.
      const calls = args ? ` (latest ${args}${previousArgs ? `, before ${previousArgs}` : ''})` : '';
      if (pending !== undefined) return `You issued ${call} ${pending} times with identical arguments${args ? ` ${args}` : ''} in one go, before any of them came back.`;
      if (identicalArgs === true) return `You called ${call} ${n + 1} times in a row with identical arguments${masked ? ' apart from fresh ids or time stamps' : ''}${args ? ` ${args}` : ''} and the results bring nothing new${error ? ` (the same error: ${error})` : ''}.`;
      if (lastIdentical) return `You called ${call} ${n + 1} times in a row, rewording the arguments and then repeating them identically${args ? ` (${args})` : ''}, and the results bring nothing new${error ? ` (the same error: ${error})` : ''}.`;
      const reworded = changed ? `changing only ${changed}` : identicalArgs === false || previousArgs ? 'reworded arguments' : 'near-identical arguments';
      return `You called ${call} ${n + 1} times in a row with ${reworded}${calls} and the results bring nothing new${error ? ` (the same error: ${error})` : ''}.`;
    }
    case 'global_circuit_breaker':
      return `You made ${n} steps in a row without progress${tool ? ` (last tool ${call})` : ''}.`;
    case 'compaction_loop_persisted':
      return `After the context was compacted you repeated ${call}${withArgs} with the same result.`;
    case 'monologue':
      return deviation.evidence['kind'] === 'no-action'
        ? `You wrote ${n} messages in a row without taking any action${lastMessage ? ` (the last: "${lastMessage}")` : ''}.`
        : `You wrote ${n} near-identical messages in a row without taking any action.`;
    case 'cycle_repeat':
      return `You repeated the same cycle of ${text(deviation.evidence['period']) ?? 'several'} calls (ending with ${call}) ${n} times with the same outcomes each time.`;
    case 'content_repetition':
      if (phrase) return `Your last message repeats ${repeated ? `the phrase "${repeated}"` : 'one short phrase'} ${n} times in a row.`;
      return `Your last message repeats the same passage ${n} times${repeated ? `: "${repeated}"` : ''}.`;
    case 'compaction_loop':
      return `Your context was compacted ${n} times in a row with ${deviation.evidence['actionsSincePrevious'] === 0 ? 'no tool call' : 'almost no work'} in between.`;
    case 'semantic_repetition':
      return `Your last outputs say the same thing in different words${similarity !== undefined ? ` (similarity ${similarity.toFixed(2)})` : ''}.`;
    case 'stagnation':
      return `No milestone progress for ${n} steps.`;
    case 'drift':
      return `Your recent steps are unrelated to the current milestone and to the goal.`;
    case 'constraint_violation':
      return `${call} breaks a hard constraint${constraint ? `: "${constraint}"` : ''}.`;
    case 'budget': {
      const ratio = deviation.evidence['ratio'];
      const used = typeof ratio === 'number' ? `${Math.round(ratio * 100)}% of` : deviation.level === 'critical' ? 'all of' : 'most of';
      return `The task has used ${used} its budget${deviation.message ? ` (${truncate(deviation.message, MAX_PREVIEW)})` : ''}.`;
    }
    default:
      return navigatorProblem(deviation) ?? truncate(deviation.message, MAX_PREVIEW);
  }
}

/** The concrete next action: stop the repeated thing and do one named thing toward the milestone. */
function nextAction(deviation: Deviation, milestoneText: string): string {
  const { tool, args, error, pairedTool, identicalArgs, pending, lastIdentical } = evidenceOf(deviation);
  const call = tool ? `\`${tool}\`` : 'that tool';
  const toward = `work on ${milestoneText}`;
  switch (deviation.detector) {
    case 'generic_repeat':
    case 'compaction_loop_persisted':
      return `do not call ${call}${args ? ` with ${args}` : ''} again; use the result you already have to ${toward}, or call a different tool.`;
    case 'known_poll_no_progress':
      return `stop polling ${call}; the status will not change by asking again. Check what the process is waiting for, or report it as blocked and ${toward} with what is available.`;
    case 'ping_pong':
      return `stop alternating ${call} and \`${pairedTool ?? 'the other tool'}\`; decide from the results you already have and take one different step to ${toward}.`;
    case 'unknown_tool_repeat':
      return `stop calling ${call}; use only the tools you were given to ${toward}.`;
    case 'error_repeat':
      return `do not retry ${call} unchanged; fix the cause of "${error ?? 'the error'}" (different arguments or a different tool) and ${toward}.`;
    case 'near_duplicate_calls':
      if (pending !== undefined) return `issue ${call}${args ? ` with ${args}` : ''} once and wait for its result, then ${toward} with it.`;
      if (identicalArgs === true || lastIdentical) return `do not call ${call}${args ? ` with ${args}` : ''} again; summarise what you found so far, then ${toward} with it or use a different source.`;
      return `stop rephrasing ${call}; summarise what you found so far, then ${toward} with it or use a different source.`;
    case 'monologue':
    case 'semantic_repetition':
    case 'content_repetition':
      return `stop restating; take one concrete action (a tool call) to ${toward}.`;
    case 'cycle_repeat':
      return `break the cycle: do not run the same calls again; use the results you already have and take one different step to ${toward}.`;
    case 'compaction_loop':
      return `keep outputs short (read only the parts of files and pages you need) and ${toward} with what is in context now.`;
    case 'global_circuit_breaker':
    case 'stagnation':
      return `state what blocks you in one sentence, then take the smallest step that completes ${milestoneText}.`;
    case 'drift':
      return `return to ${milestoneText}; drop the side track.`;
    case 'constraint_violation':
      return `do not call ${call}; find a way that respects the constraint to ${toward}.`;
    case 'budget':
      return `finish ${milestoneText} with the fewest steps; do not start new exploration.`;
    default:
      return navigatorNextAction(deviation, milestoneText) ?? `work on ${milestoneText}.`;
  }
}

function milestoneLabel(map: CognitiveMap | undefined, milestoneId: string | null, fromEvidence?: string): string {
  if (milestoneId === null && fromEvidence) milestoneId = fromEvidence;
  if (milestoneId === null) return 'the current milestone';
  const m = map?.milestones.find((x) => x.id === milestoneId);
  return m ? `milestone ${m.id} ("${truncate(m.description, MAX_PREVIEW)}")` : `milestone ${milestoneId}`;
}

function constraintsLine(deviation: Deviation, map: CognitiveMap | undefined): string | undefined {
  const hard = (map?.constraints ?? []).filter((c) => c.hard).map((c) => c.text);
  const named = evidenceOf(deviation).constraint;
  const list = named ? [named, ...hard.filter((c) => c !== named)] : hard;
  if (list.length === 0) return undefined;
  const shown = list.slice(0, MAX_CONSTRAINTS).map((c, i) => `${i + 1}. ${truncate(c, MAX_PREVIEW)}`);
  return `Constraints you must keep: ${shown.join(' ')}`;
}

export function buildHintText(input: HintInput): string {
  const { deviation, map, milestoneId } = input;
  const named = text(deviation.evidence['milestone']);
  // An agent with no task and no map (a hook or proxy agent that never posted one) has no milestone to be on.
  const unmapped = map === undefined && milestoneId === null && named === undefined;
  const label = unmapped ? 'your task' : milestoneLabel(map, milestoneId, named);
  const lines = [`[Wayfinder] ${input.relapse ? 'The same problem is back. ' : ''}${problem(deviation)}`];
  if (!unmapped) lines.push(`You are on ${label}.`);
  const constraints = constraintsLine(deviation, map);
  if (constraints) lines.push(constraints);
  if (input.failureReason) lines.push(`Previous attempt failed: ${truncate(input.failureReason, 1024)}`);
  lines.push(`Next action: ${nextAction(deviation, label)}`);
  return truncate(lines.join('\n'), MAX_HINT_CHARS);
}
