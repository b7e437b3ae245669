import { HashingEmbedder } from '@wayfinder/embeddings';
import { DriftDetector } from './drift.detector';
import { policy, stepper } from './testing/drift-steps';

const FACTS = '### 1. Facts given in the task\n• The question asks which album by Fiona Apple got no letter grade from Robert Christgau.';
const LOOKUP_PLAN = "1. Search the web for Fiona Apple's discography before 1999.\n2. Look up Robert Christgau's reviews of each album.\n3. Identify the album without a letter grade.\n4. Give the final answer.";
const REASONING_PLAN = '1. Re-read the premises.\n2. Analyze the statement under each hypothesis.\n3. Deduce the count.\n4. Give the final answer.';

function run(plan: string, withTool: boolean) {
  const detector = new DriftDetector(new HashingEmbedder());
  const s = stepper();
  const steps = [
    s.say(FACTS),
    s.say(plan),
    s.say('Thought: I already know the answer, Harbinger.'),
    ...(withTool ? [s.act('web_search', { query: 'Robert Christgau Fiona Apple Tidal grade' })] : []),
    s.act('python', { code: 'final_answer("Harbinger")' }),
    s.act('final_answer', { answer: 'Harbinger' }),
  ];
  return steps.flatMap((step) => detector.onStep(step, undefined, { policy }));
}

describe('drift: a plan that calls for looking things up, abandoned for a direct answer', () => {
  it('is flagged where the answer is handed in (code that does nothing else), with the plan curve named', () => {
    const out = run(LOOKUP_PLAN, false);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ detector: 'drift', level: 'warning', atSeq: 3, loopStartSeq: 1, evidence: { curve: 'plan', planItems: 4 } });
  });

  it('is not flagged when the run made a tool call before answering', () => {
    expect(run(LOOKUP_PLAN, true)).toEqual([]);
  });

  it('is not flagged when the plan needs no outside information', () => {
    expect(run(REASONING_PLAN, false)).toEqual([]);
  });
});
