// An [ALIGN-CHECK] block whose answers say no (EN or ZH) is an align_check_failed warning quoting the
// failing answer; all-yes (and "no" to the constraint question) is nothing.
import { readAlignCheck } from './align-check-block';
import { agentSteps, goalEngine, mapOf, run } from './goal-checks.testing';

const map = mapOf('Write a market report on 5 competitors');

describe('align_check_failed', () => {
  it('warns when the agent says the last steps did not advance the sub-task (EN)', () => {
    const s = agentSteps();
    const text = 'Done with the search.\n[ALIGN-CHECK]\n1. Still serving the goal? yes\n2. Did the last steps advance the current sub-task? no — the same page keeps coming back\n3. Any hard constraint violated? no\n[/ALIGN-CHECK]';
    const out = run(goalEngine(map), [s.say(text)]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ detector: 'align_check_failed', level: 'warning' });
    expect(out[0].evidence['questions']).toEqual(['progress']);
    expect(out[0].message).toContain('no — the same page keeps coming back');
  });

  it('warns when a hard constraint was violated (ZH)', () => {
    const s = agentSteps();
    const text = '[ALIGN-CHECK]\n1. 是否仍在服务目标？是\n2. 最近的步骤是否推进了子任务？是\n3. 是否违反了硬约束？是，修改了源文件\n[/ALIGN-CHECK]';
    const out = run(goalEngine(map), [s.say(text)]);
    expect(out.map((d) => d.evidence['questions'])).toEqual([['constraints']]);
    expect(out[0].message).toContain('修改了源文件');
  });

  it('says nothing for an all-clear check (EN and ZH) or a message without a block', () => {
    const s = agentSteps();
    const steps = [
      s.say('[ALIGN-CHECK]\n1. Still serving the goal? yes\n2. Did the last steps advance the current sub-task? yes\n3. Any hard constraint violated? no\n[/ALIGN-CHECK]'),
      s.say('[ALIGN-CHECK]\n1. 是否仍在服务目标？是\n2. 最近的步骤是否推进了子任务？是\n3. 是否违反了硬约束？否\n[/ALIGN-CHECK]'),
      s.say('No, I will not stop; the goal is clear.'),
    ];
    expect(run(goalEngine(map), steps)).toEqual([]);
  });

  it('reads goal / progress / constraints by their words, and an unreadable answer as unknown', () => {
    const answers = readAlignCheck('- constraints violated: none\n- serving the goal: not really, I drifted to pricing history\n- progress: hmm');
    expect(answers.map((a) => [a.question, a.answer, a.failing])).toEqual([
      ['constraints', 'no', false],
      ['goal', 'no', true],
      ['progress', 'unknown', false],
    ]);
  });
});

describe('align_check_failed on the charter template', () => {
  it('reads the template itself (echoed unanswered) as no failure', async () => {
    const { ALIGN_CHECK_TEMPLATE } = await import('@wayfinder/memory');
    const s = agentSteps('echo');
    expect(run(goalEngine(map), [s.say(ALIGN_CHECK_TEMPLATE)])).toEqual([]);
    const answered = ALIGN_CHECK_TEMPLATE.replace('yes/no, and why', 'no, I am reading about AI history');
    expect(run(goalEngine(map), [s.say(answered)]).map((d) => d.evidence['questions'])).toEqual([['goal']]);
  });

  it('reads nothing, and throws nothing, from a message whose text is not a string', () => {
    const s = agentSteps();
    const step = s.say('') as Extract<ReturnType<typeof s.say>, { kind: 'message' }>;
    const out = run(goalEngine(map), [{ ...step, message: { ...step.message, text: 42 as unknown as string } }]);
    expect(out.filter((d) => d.detector === 'align_check_failed')).toEqual([]);
  });
});
