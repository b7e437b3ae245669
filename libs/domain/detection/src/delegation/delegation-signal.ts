/**
 * Steps → delegation signals (cross_agent_cycle): a `message` or `action` whose `attributes.delegateTo`
 * names another agent, or a sub-agent spawn (`spawn_agent`, `delegate`, `handoff`, `Task`, the OpenAI
 * Agents SDK's `transfer_to_<agent>`) is a delegation; a milestone done (or a position that moved forward)
 * is progress. Pure: the per-agent workers turn their steps into these and publish them keyed by tenant.
 */
import { DELEGATION_SCHEMA, type DelegationSignal, type JsonValue, type StepEvent } from '@wayfinder/contracts';

const SPAWN_TOOLS = /^(?:spawn_agent|spawn_subagent|spawn_sub_agent|create_subagent|delegate|delegate_task|handoff|hand_off|task|run_agent|call_agent)$/i;
const TRANSFER = /^transfer_to_([\w.-]{1,120})$/i;
const TARGET_KEYS = ['agentId', 'agent_id', 'agent', 'to', 'target', 'subagent', 'subagent_type', 'assignee', 'name'];
const SUBTASK_KEYS = ['task', 'prompt', 'description', 'instructions', 'input', 'query', 'goal'];
const MAX_SUBTASK = 256;

function str(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && value.trim().length > 0 ? value.trim() : undefined;
}

/** What is delegated, normalized (case, spaces, punctuation), so the same sub-task reworded trivially compares equal. */
export function normalizeSubtask(text: string): string {
  return text.toLowerCase().replace(/[\s\p{P}]+/gu, ' ').trim().slice(0, MAX_SUBTASK);
}

/** The agent a step delegates to, and what, if it delegates. */
export function delegationOf(step: StepEvent): { to: string; subtask?: string } | undefined {
  if (step.kind !== 'action' && step.kind !== 'message') return undefined;
  const attributes = step.attributes;
  const declared = str(attributes?.delegateTo);
  const args = step.kind === 'action' ? (step.action.args as Record<string, JsonValue>) : {};
  let to = declared;
  if (!to && step.kind === 'action') {
    const transfer = TRANSFER.exec(step.action.tool);
    if (transfer) to = transfer[1];
    else if (SPAWN_TOOLS.test(step.action.tool)) to = TARGET_KEYS.map((k) => str(args[k])).find((v) => v !== undefined);
  }
  if (!to || to === step.agentId || to.length > 128) return undefined;
  const raw = str(attributes?.subtask) ?? SUBTASK_KEYS.map((k) => str(args[k])).find((v) => v !== undefined) ?? (step.kind === 'message' ? step.message.text : undefined);
  return raw ? { to, subtask: normalizeSubtask(raw) } : { to };
}

/** The signals of one localized step (none for most steps); `progressed`: its position moved forward. */
export function delegationSignalsOf(step: StepEvent, progressed = false): DelegationSignal[] {
  const base = {
    schema: DELEGATION_SCHEMA,
    tenantId: step.tenantId,
    ts: step.ts,
    agentId: step.agentId,
    taskId: step.taskId,
    runId: typeof step.runId === 'string' ? step.runId : null,
    seq: step.seq,
    stepEventId: step.eventId,
  };
  const out: DelegationSignal[] = [];
  if ((step.kind === 'milestone' && step.milestone.status === 'done') || progressed) {
    out.push({ ...base, eventId: `${step.eventId}:progress`.slice(0, 128), kind: 'progress' });
  }
  const delegation = delegationOf(step);
  if (delegation) out.push({ ...base, eventId: `${step.eventId}:delegation`.slice(0, 128), kind: 'delegation', to: delegation.to, ...(delegation.subtask && { subtask: delegation.subtask }) });
  return out;
}
