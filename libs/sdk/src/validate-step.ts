/** Checks an outgoing step against the `wayfinder.step.v1` contract, naming the field that is wrong. */
import { StepEvent } from '@wayfinder/contracts';
import type { OutgoingStep } from './transport';

export type StepCheck = { ok: true; step: StepEvent } | { ok: false; error: string; field: string };

export function checkStep(step: OutgoingStep, tenantId: string): StepCheck {
  const parsed = StepEvent.safeParse({ ...step, tenantId: step.tenantId ?? tenantId });
  if (parsed.success) return { ok: true, step: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issue.path.length > 0 ? issue.path.join('.') : '(root)';
  return { ok: false, error: `${field}: ${issue.message}`, field };
}
