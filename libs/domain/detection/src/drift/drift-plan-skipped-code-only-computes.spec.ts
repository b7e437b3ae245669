/**
 * Plan-skip (drift, DESIGN §5.3) with a code agent: code that only computes or prints is no lookup, so a
 * lookup plan followed by hard-coded estimates and an answer is abandoned; code that calls a tool (a call
 * arrives before its output, or a sub-agent's run starts) or reads from outside is lookup work.
 */
import type { StepEvent } from '@wayfinder/contracts';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { DriftDetector } from './drift.detector';
import { policy, stepper } from './testing/drift-steps';

const FACTS = '### 1. Facts given in the task\n• The trip follows I-40 from Los Angeles to Cincinnati, then I-90 to Augusta.';
const LOOKUP_PLAN = '1. Search the web for the mileage of I-40 from Los Angeles to Cincinnati.\n2. Look up the mileage of I-90 from Cincinnati to Augusta.\n3. Sum the two and round.\n4. Give the final answer.';

function flagged(steps: StepEvent[]) {
  const detector = new DriftDetector(new HashingEmbedder());
  return steps.flatMap((step) => detector.onStep(step, undefined, { policy })).filter((d) => d.evidence['curve'] === 'plan');
}

describe('plan-skip when the only work is code that computes', () => {
  it('flags hard-coded estimates followed by the answer (the code called no tool)', () => {
    const s = stepper();
    const out = flagged([
      s.say(FACTS),
      s.say(LOOKUP_PLAN),
      s.act('python', { code: 'distance = 2100 + 850  # estimates\nprint(round(distance / 100) * 100)' }),
      s.see('python', 'Execution logs:\n3000'),
      s.act('python', { code: 'final_answer("7.50 dollars")' }),
      s.act('final_answer', {}),
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ atSeq: 4, loopStartSeq: 1 });
  });

  it('flags code that only prints the request it never sends', () => {
    const s = stepper();
    const out = flagged([
      s.say(FACTS),
      s.say(LOOKUP_PLAN),
      s.act('python', { code: 'task = "Please search the mileage of I-40 and I-90"\nprint(task)' }),
      s.see('python', 'Execution logs:\nPlease search the mileage of I-40 and I-90'),
      s.act('final_answer', { answer: '7.50' }),
    ]);
    expect(out).toHaveLength(1);
  });

  it('does not flag code during which a tool was called (its call arrives before the output)', () => {
    const s = stepper();
    expect(
      flagged([
        s.say(FACTS),
        s.say(LOOKUP_PLAN),
        s.act('python', { code: 'print(web_search(query="I-40 mileage Los Angeles Cincinnati"))' }),
        s.act('web_search', { query: 'I-40 mileage Los Angeles Cincinnati' }),
        s.see('web_search', 'I-40 runs 2,555 miles'),
        s.see('python', 'Execution logs:\nI-40 runs 2,555 miles'),
        s.act('final_answer', { answer: '7.50' }),
      ]),
    ).toEqual([]);
  });

  it('does not flag code that handed the work to a sub-agent (another run of the agent ran before the output)', () => {
    const manager = stepper('manager');
    const helper = stepper('helper');
    expect(
      flagged([
        manager.say(FACTS),
        manager.say(LOOKUP_PLAN),
        manager.act('python', { code: 'print(search_agent(task="Find the mileage of I-40 and I-90"))' }),
        helper.act('web_search', { query: 'I-40 I-90 mileage' }),
        helper.see('web_search', 'I-40 runs 2,555 miles; I-90 3,020 miles'),
        manager.see('python', 'Execution logs:\nI-40 2,555 miles; I-90 3,020 miles'),
        manager.act('final_answer', { answer: '8.00' }),
      ]),
    ).toEqual([]);
  });

  it('does not flag code that reads from outside itself (a file, a URL)', () => {
    const s = stepper();
    expect(
      flagged([
        s.say(FACTS),
        s.say(LOOKUP_PLAN),
        s.act('python', { code: 'import pandas as pd\ndf = pd.read_csv("highways.csv")\nprint(df.loc["I-40"])' }),
        s.see('python', 'Execution logs:\nI-40 2555'),
        s.act('final_answer', { answer: '7.50' }),
      ]),
    ).toEqual([]);
  });
});
