// Issues #30 and #32: a near-duplicate hint says what happened — "identical" when the repeated calls'
// arguments were the same (after the detector's canonical JSON, keys in any order), "reworded" only when
// they changed, and both when a reworded chain went on repeating its newest args exactly. The detection engine runs on real step sequences; the hint is built from its evidence.
import type { Deviation, JsonValue, StepEvent } from '@wayfinder/contracts';
import { DetectionEngine, resolvePolicy } from '@wayfinder/detection';
import { buildHintText } from './hint-text';
import { testMap } from './ladder-scenario.testing';

function stepsOf() {
  let seq = 0;
  let call = 0;
  const base = () => ({ schema: 'wayfinder.step.v1' as const, eventId: `e${seq}`, tenantId: 'acme', agentId: 'agent-7', taskId: 'task-1', runId: 'run-1', seq: seq++, ts: '2026-01-01T00:00:00.000Z' });
  return {
    act: (tool: string, args: Record<string, JsonValue>): StepEvent => ({ ...base(), kind: 'action', action: { tool, args, callId: `c${++call}` } }),
    fail: (tool: string, error: string): StepEvent => ({ ...base(), kind: 'observation', observation: { tool, ok: false, error, callId: `c${call}` } }),
  };
}

/** Every near_duplicate_calls deviation the engine emits on the events. */
function nearDuplicates(events: StepEvent[]): Deviation[] {
  const policy = resolvePolicy({});
  const engine = new DetectionEngine({ policyFor: () => ({ policy }) });
  return events.flatMap((e) => engine.onStep(e)).filter((d) => d.detector === 'near_duplicate_calls');
}

const ERROR = 'No results found for query: acme pricing 2025';

/** The same failing search, its args written each time (the twin changes only the query's wording). */
function searches(args: Array<Record<string, JsonValue>>): StepEvent[] {
  const s = stepsOf();
  return args.flatMap((a) => [s.act('web_search', a), s.fail('web_search', ERROR)]);
}

describe('near-duplicate hint: identical vs reworded, from the detector evidence', () => {
  it('says "identical" when every repeated call had the same arguments (keys in another order count as the same)', () => {
    const out = nearDuplicates(
      searches([
        { query: 'acme pricing 2025', region: 'us' },
        { region: 'us', query: 'acme pricing 2025' },
        { query: 'acme pricing 2025', region: 'us' },
      ]),
    );
    expect(out.length).toBeGreaterThan(0);
    const deviation = out[0];
    expect(deviation.evidence['identicalArgs']).toBe(true);
    expect(deviation.message).toContain('with identical arguments');
    const text = buildHintText({ deviation, map: testMap(), milestoneId: 'm2' });
    expect(text).toContain(`You called \`web_search\` ${deviation.count + 1} times in a row with identical arguments {"query":"acme pricing 2025","region":"us"}`);
    expect(text).toContain(`(the same error: ${ERROR})`);
    expect(text).not.toMatch(/reworded|rephras|changing only/);
    expect(text).toContain('Next action: do not call `web_search` with {"query":"acme pricing 2025","region":"us"} again');
  });

  it('says "reworded" in the twin, where the query changed between the calls', () => {
    const out = nearDuplicates(
      searches([
        { query: 'acme pricing 2025', region: 'us' },
        { query: 'acme price list 2025', region: 'us' },
        { query: 'acme pricing list 2025', region: 'us' },
      ]),
    );
    expect(out.length).toBeGreaterThan(0);
    const deviation = out[0];
    expect(deviation.evidence['identicalArgs']).toBe(false);
    expect(deviation.message).toContain('with reworded arguments');
    const text = buildHintText({ deviation, map: testMap(), milestoneId: 'm2' });
    expect(text).toContain(`You called \`web_search\` ${deviation.count + 1} times in a row with changing only query`);
    expect(text).not.toContain('identical');
    expect(text).toMatch(/Next action: stop rephrasing `web_search`/);
  });

  it('says both when a reworded chain goes on with calls that repeat the previous one exactly', () => {
    const last = { query: 'acme pricing list 2025', region: 'us' };
    const out = nearDuplicates(searches([{ query: 'acme pricing 2025', region: 'us' }, { query: 'acme price list 2025', region: 'us' }, last, last, last]));
    expect(out.map((d) => d.count)).toContain(2);
    for (const deviation of out) {
      // The chain as a whole was reworded: never "identical" alone.
      expect(deviation.evidence['identicalArgs']).toBe(false);
      const text = buildHintText({ deviation, map: testMap(), milestoneId: 'm2' });
      expect(text).not.toContain('with identical arguments');
      if (deviation.evidence['lastIdentical'] === true) {
        // The newest call repeated the previous args exactly: the hint says that too, and names them.
        expect(deviation.message).toContain('with reworded, then identical, arguments');
        expect(text).toContain(`You called \`web_search\` ${deviation.count + 1} times in a row, rewording the arguments and then repeating them identically ({"query":"acme pricing list 2025","region":"us"})`);
        expect(text).toContain('Next action: do not call `web_search` with {"query":"acme pricing list 2025","region":"us"} again');
      } else expect(text).not.toContain('identical');
    }
    // The calls that repeated the reworded one exactly (the fourth and fifth) are said so.
    expect(out.filter((d) => d.evidence['lastIdentical'] === true).length).toBeGreaterThan(0);
  });

  it('an agent with no task or map is not told it is "on the current milestone"', () => {
    const [deviation] = nearDuplicates(searches([{ query: 'acme pricing 2025' }, { query: 'acme pricing 2025' }, { query: 'acme pricing 2025' }]));
    const text = buildHintText({ deviation, milestoneId: null });
    expect(text).not.toContain('current milestone');
    expect(text).not.toContain('You are on');
    expect(text).toContain('then work on your task with it');
  });
});
