/**
 * Content capture off: 25 calls of the same tool whose arguments and results were not recorded (absent,
 * `__REDACTED__`, blanked `{}`, partly redacted), some failing with no message. Through the real
 * detection engine none of it may count as a repeat; the same 25 calls with recorded, identical content
 * are a loop (the control that shows the test can fail).
 */
import { LOOP_FAMILY, type StepEvent } from '@wayfinder/contracts';
import { DetectionEngine, resolvePolicy } from '@wayfinder/detection';
import { exportRequest, stepsOf, type SpanSpec } from './testing/otlp-fixture';

const resource = { 'service.name': 'svc', 'wayfinder.agent.id': 'private-agent' };
const UNRECORDED_ARGS: (string | Record<string, unknown> | undefined)[] = [undefined, '__REDACTED__', '{}', '{"query":"__REDACTED__"}', ''];

function run(recorded: boolean): StepEvent[] {
  const spans: SpanSpec[] = [];
  for (let i = 0; i < 25; i++) {
    const attrs: Record<string, unknown> = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search' };
    const failed = !recorded && i % 5 === 4;
    if (recorded) {
      attrs['gen_ai.tool.call.arguments'] = '{"query":"status of order 1"}';
      attrs['gen_ai.tool.call.result'] = 'no results';
    } else {
      const args = UNRECORDED_ARGS[i % UNRECORDED_ARGS.length];
      if (args !== undefined) attrs['gen_ai.tool.call.arguments'] = args;
      if (i % 2 === 0) attrs['gen_ai.tool.call.result'] = '__REDACTED__';
    }
    spans.push({ id: `T${i}`, parent: 'A', name: 'execute_tool search', start: i * 100, end: i * 100 + 50, attrs, ...(failed ? { status: { code: 2 as const } } : {}) });
  }
  spans.push({ id: 'A', name: 'invoke_agent a', start: 0, end: 3000, attrs: { 'gen_ai.operation.name': 'invoke_agent' } });
  return stepsOf([exportRequest(resource, spans)]);
}

function loopDeviations(steps: StepEvent[]) {
  const engine = new DetectionEngine({ policyFor: () => ({ policy: resolvePolicy({}) }) });
  return steps.flatMap((s) => engine.onStep(s)).filter((d) => LOOP_FAMILY.includes(d.detector) || d.detector === 'error_repeat');
}

describe('unrecorded content through the detection engine', () => {
  it('marks each unknown field and gives it a token of its own', () => {
    const steps = run(false);
    const actions = steps.filter((s) => s.kind === 'action');
    expect(actions).toHaveLength(25);
    for (const a of actions) expect(a.attributes?.['wayfinder.unknown']).toEqual(['args']);
    const tokens = actions.map((a) => (a.kind === 'action' ? JSON.stringify(a.action.args) : ''));
    expect(new Set(tokens).size).toBe(25);
    const failures = steps.filter((s) => s.kind === 'observation' && !s.observation.ok);
    expect(failures).toHaveLength(5);
    for (const f of failures) expect(f.attributes?.['wayfinder.unknown']).toEqual(expect.arrayContaining(['content', 'error']));
  });

  it('never counts unknown calls, results or errors as repeats', () => {
    expect(loopDeviations(run(false))).toEqual([]);
  });

  it('does flag the same 25 calls when their identical content was recorded', () => {
    const flagged = loopDeviations(run(true));
    expect(flagged.map((d) => d.detector)).toContain('generic_repeat');
    expect(flagged.some((d) => d.level === 'critical')).toBe(true);
  });
});
