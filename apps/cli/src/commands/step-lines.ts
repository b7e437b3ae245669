/**
 * Streams StepEvents out of JSONL files, one line at a time (readline over an fs stream), so a file of a
 * million events is never held in memory. Each line is validated against `wayfinder.steps.v1`; a bad line
 * is handed to `onInvalid` with its file and line number and the run goes on. A line whose schema is
 * `wayfinder.task.v1` is a TaskSpec: it gives the steps of its task a map to be localized on.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parsePayload, TASK_SCHEMA, type StepEvent, type TaskSpec } from '@wayfinder/contracts';

export interface StepLineHandlers {
  /** May return a promise (e.g. waiting for stdout to drain); reading pauses until it settles. */
  onStep(step: StepEvent, file: string, line: number): void | Promise<void>;
  onInvalid(file: string, line: number, error: string): void | Promise<void>;
  /** A TaskSpec line; without this handler such lines are reported as invalid steps. */
  onTask?(task: TaskSpec, file: string, line: number): void;
}

export interface StepLineStats {
  lines: number;
  steps: number;
  invalid: number;
}

export async function readStepFile(file: string, handlers: StepLineHandlers, stats?: StepLineStats): Promise<void> {
  const input = createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  try {
    for await (const text of lines) {
      lineNo++;
      if (stats) stats.lines++;
      if (text.trim().length === 0) continue;
      const outcome = parseStepLine(text, handlers.onTask !== undefined);
      let pending: void | Promise<void> = undefined;
      if (outcome.ok && outcome.task) {
        handlers.onTask?.(outcome.task, file, lineNo);
      } else if (outcome.ok) {
        if (stats) stats.steps++;
        pending = handlers.onStep(outcome.value, file, lineNo);
      } else {
        if (stats) stats.invalid++;
        pending = handlers.onInvalid(file, lineNo, outcome.error);
      }
      if (pending) await pending;
    }
  } finally {
    lines.close();
    input.destroy();
  }
}

export type StepLineResult = { ok: true; value: StepEvent; task?: undefined } | { ok: true; task: TaskSpec } | { ok: false; error: string };

export function parseStepLine(text: string, acceptTasks = false): StepLineResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `invalid JSON: ${(error as Error).message}` };
  }
  if (acceptTasks && (raw as { schema?: unknown } | null)?.schema === TASK_SCHEMA) {
    const task = parsePayload('wayfinder.tasks.v1', raw);
    return task.ok ? { ok: true, task: task.value } : { ok: false, error: `task: ${task.error}` };
  }
  return parsePayload('wayfinder.steps.v1', raw);
}
