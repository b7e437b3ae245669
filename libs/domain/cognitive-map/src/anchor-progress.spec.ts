import type { Anchor } from '@wayfinder/contracts';
import { anchorStatus, emptyProgress, updateAnchorProgress, type AnchorProgress } from './anchor-progress';
import { action, message, observation } from './testing/step-builders';
import type { StepEvent } from '@wayfinder/contracts';

const anchor = (id: string, target: number, unit: string, comparator: Anchor['comparator'] = 'atLeast'): Anchor => ({ id, text: `${target} ${unit}`, target, unit, comparator, hard: true });

function run(anchors: Anchor[], steps: StepEvent[]): AnchorProgress {
  return steps.reduce((p, s) => updateAnchorProgress(anchors, p, s), emptyProgress(anchors));
}

describe('anchor progress', () => {
  it('takes explicit counts the agent states, but not a restated requirement', () => {
    const anchors = [anchor('comp', 5, 'competitors')];
    expect(run(anchors, [message('We need at least 5 competitors.')]).comp.count).toBe(0);
    expect(run(anchors, [message('So far I found 3 competitors: A, B, C.')]).comp.count).toBe(3);
    expect(run(anchors, [message('已找到 4 个竞品', 'assistant')]).comp.count).toBe(0);
  });

  it('counts Chinese explicit counts with a measure word', () => {
    const anchors = [anchor('src', 10, '数据源')];
    expect(run(anchors, [message('目前已收集6个数据源')]).src.count).toBe(6);
  });

  it('counts distinct URLs for source-like units, across steps, never going down', () => {
    const anchors = [anchor('src', 3, 'sources')];
    const p = run(anchors, [
      observation('search', 'see https://a.example/x and https://b.example/y.'),
      observation('search', 'again https://a.example/x'),
      message('nothing here'),
    ]);
    expect(p.src.count).toBe(2);
  });

  it('measures length anchors on the longest own output', () => {
    const anchors = [anchor('len', 10, '字'), anchor('words', 5, 'words')];
    const p = run(anchors, [message('这是一段十个汉字的话。'), action('write', { text: 'one two three four five six' }), observation('read', '很多很多很多很多很多很多字不算')]);
    expect(p.len.count).toBe(10);
    expect(p.words.count).toBe(6);
  });

  it('status: at-least met at target, at-most exceeded past it, exactly only at it', () => {
    expect(anchorStatus(anchor('a', 5, 'x'), 4)).toBe('pending');
    expect(anchorStatus(anchor('a', 5, 'x'), 5)).toBe('met');
    expect(anchorStatus(anchor('a', 8, 'rounds', 'atMost'), 9)).toBe('exceeded');
    expect(anchorStatus(anchor('a', 8, 'rounds', 'atMost'), 3)).toBe('met');
    expect(anchorStatus(anchor('a', 5, 'points', 'exactly'), 6)).toBe('exceeded');
    expect(anchorStatus(anchor('a', 5, 'points', 'exactly'), 5)).toBe('met');
  });
});
