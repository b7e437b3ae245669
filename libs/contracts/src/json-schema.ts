/**
 * JSON Schema for every v1 event, for agents and services written in other languages. The files in
 * libs/contracts/json-schema are generated from the zod schemas by `npm run schemas:generate`; a unit
 * test fails when they are stale.
 */
import { zodToJsonSchema } from 'zod-to-json-schema';
import type { z } from 'zod';
import { CognitiveMap, TaskSpec } from './task';
import { Correction, DetectedStep, Deviation, Escalation, LocalizedStep } from './navigation';
import { StepEvent } from './step';
import { TenantPolicy } from './policy';
import { AgentControl } from './control';
import { AnchorChange } from './anchor-change';
import { DelegationSignal } from './delegation';
import { OtlpTraceBatch } from './otlp';

export const EVENT_SCHEMAS: Record<string, z.ZodTypeAny> = {
  'wayfinder.step.v1': StepEvent,
  'wayfinder.task.v1': TaskSpec,
  'wayfinder.map.v1': CognitiveMap,
  'wayfinder.localized.v1': LocalizedStep,
  'wayfinder.deviation.v1': Deviation,
  'wayfinder.detected.v1': DetectedStep,
  'wayfinder.correction.v1': Correction,
  'wayfinder.escalation.v1': Escalation,
  'wayfinder.policy.v1': TenantPolicy,
  'wayfinder.control.v1': AgentControl,
  'wayfinder.anchor-change.v1': AnchorChange,
  'wayfinder.delegation.v1': DelegationSignal,
  'wayfinder.otlp.v1': OtlpTraceBatch,
};

/** The generated documents, keyed by file name (`wayfinder.step.v1.schema.json`), pretty-printed. */
export function generateJsonSchemas(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [name, schema] of Object.entries(EVENT_SCHEMAS)) {
    const doc = zodToJsonSchema(schema, { name, effectStrategy: 'input', $refStrategy: 'root' });
    files[`${name}.schema.json`] = JSON.stringify({ $id: `https://wayfinder.dev/schemas/${name}.json`, ...doc }, null, 2) + '\n';
  }
  return files;
}
