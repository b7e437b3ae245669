/**
 * What an agent does once it has fallen into a failure of DESIGN §1, one turn at a time. Each pattern is
 * the field-report shape of the failure and nothing more, so the detector that claims it (CLAIMED_DETECTORS)
 * is the one that should see it: the same call with the same result; a tool that does not exist retried
 * with other arguments; a status poll that never changes; two failing actions in alternation; one search
 * rephrased while nothing new comes back; the same thought restated with no action; busy work that
 * reaches no milestone; work that has wandered off the task.
 */
import type { JsonValue } from '@wayfinder/contracts';
import type { FailureKind } from './fleet.types';
import type { Prng } from './prng';
import { words } from './task-catalog';

export type StepBody =
  | { kind: 'action'; action: { tool: string; args: Record<string, JsonValue>; callId: string } }
  | { kind: 'observation'; observation: { tool: string; callId: string; ok: boolean; content?: JsonValue; error?: string } }
  | { kind: 'message'; message: { role: 'assistant'; text: string; type: 'thought' | 'output' } }
  | { kind: 'milestone'; milestone: { id: string; status: 'done'; evidence?: string } };

export interface PatternContext {
  rng: Prng;
  /** The task's subject, e.g. "CRM software". */
  subject: string;
  /** A fresh call id for each action. */
  callId(): string;
}

/** A tool call and its observation as two step bodies. */
export function call(ctx: PatternContext, tool: string, args: Record<string, JsonValue>, ok: boolean, result: JsonValue | string, isError = false): StepBody[] {
  const callId = ctx.callId();
  const observation: Extract<StepBody, { kind: 'observation' }>['observation'] = { tool, callId, ok };
  if (isError) observation.error = String(result);
  else observation.content = result;
  return [{ kind: 'action', action: { tool, args, callId } }, { kind: 'observation', observation }];
}

const OFF_TOPIC = [
  'history of the byzantine empire trade routes',
  'sourdough starter hydration ratios',
  'best hiking trails in patagonia',
  'how tides are predicted by harmonic analysis',
  'origami crane folding instructions',
  'chess opening theory for the sicilian defence',
  'migratory patterns of arctic terns',
  'restoring a vintage typewriter ribbon',
];

/** A looping agent's state: fixed per agent, so the repeated call really is the same call. */
export interface Pattern {
  readonly kind: FailureKind;
  /** The looping tools and distinctive argument values: what a specific correction names. */
  readonly tools: readonly string[];
  readonly values: readonly string[];
  /** The next turn's steps (one or two bodies). */
  next(n: number): StepBody[];
}

export function patternFor(kind: FailureKind, ctx: PatternContext): Pattern {
  const { rng, subject } = ctx;
  switch (kind) {
    case 'same_call': {
      const path = `data/export-${rng.token(4)}.csv`;
      return { kind, tools: ['read_file'], values: [path], next: () => call(ctx, 'read_file', { path }, true, { rows: 0, note: 'the file is empty' }) };
    }
    case 'unknown_tool':
      return {
        kind,
        tools: ['browse_page'],
        values: [],
        next: () => call(ctx, 'browse_page', { url: `https://${rng.token(6)}.example.com/${rng.pick(['pricing', 'plans', 'about'])}` }, false, 'Unknown tool: browse_page. Available tools: web_search, open_url, extract_table', true),
      };
    case 'dead_poll': {
      const job = `job-${rng.token(8)}`;
      return { kind, tools: ['job_status'], values: [job], next: () => call(ctx, 'job_status', { job }, true, { state: 'pending', queue: 'default' }) };
    }
    case 'ping_pong': {
      const path = `src/${rng.token(5)}/cart.ts`;
      return {
        kind,
        tools: ['edit_file', 'run_tests'],
        values: [path],
        next: (n) =>
          n % 2 === 0
            ? call(ctx, 'edit_file', { path, patch: '@@ -42 +42 @@ return subtotal + tax' }, true, { applied: true })
            : call(ctx, 'run_tests', { suite: 'cart' }, false, 'FAIL cart.spec.ts > total: expected 120, received 100', true),
      };
    }
    case 'rephrased_search': {
      const variants = [
        `${subject} pricing plans 2024`,
        `${subject} price plans 2024`,
        `pricing plans ${subject} 2024`,
        `${subject} pricing plan 2024`,
        `2024 ${subject} pricing plans`,
      ];
      return { kind, tools: ['web_search'], values: [`${subject} pricing`], next: (n) => call(ctx, 'web_search', { query: variants[n % variants.length] }, true, { results: [], message: 'No results found' }) };
    }
    case 'monologue':
      return {
        kind,
        tools: [],
        values: ['double-check the configuration'],
        next: () => [{ kind: 'message', message: { role: 'assistant', type: 'thought', text: 'Before changing anything I should double-check the configuration, so let me think again about which setting controls the timeout.' } }],
      };
    case 'stagnation':
      return {
        kind,
        tools: ['list_dir', 'read_file', 'grep', 'python'],
        values: [],
        next: (n) => {
          const tool = ['list_dir', 'read_file', 'grep', 'python'][n % 4];
          return call(ctx, tool, { target: `${rng.token(8)}/${rng.token(6)}`, n }, true, { items: [rng.token(10), rng.token(10), rng.token(10)], size: rng.int(1, 99999) });
        },
      };
    case 'drift':
      return {
        kind,
        tools: ['web_search', 'open_url'],
        values: [],
        next: (n) =>
          n % 2 === 0
            ? call(ctx, 'web_search', { query: `${rng.pick(OFF_TOPIC)} ${words(rng, 2)}` }, true, { results: [words(rng, 6), words(rng, 6)] })
            : call(ctx, 'open_url', { url: `https://${rng.token(8)}.example.org/${rng.token(5)}` }, true, { text: `${rng.pick(OFF_TOPIC)}: ${words(rng, 10)}` }),
      };
  }
}
