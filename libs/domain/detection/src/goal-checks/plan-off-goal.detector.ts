/**
 * `plan_off_goal`: at a `plan` event, each sub-goal must serve at least one of the map's quantitative
 * anchors or milestones — the "interesting article" branch is cheapest to catch before a step is spent
 * on it. A sub-goal serves when it names an anchor (its `anchors` list, by id, unit or text), shares a
 * content term with an anchor, a milestone or the goal (terms first), or else is similar to one of them
 * by the embedder at or above `policy.planCheck.threshold`. Sub-goals that serve nothing are a warning
 * naming them; the ladder lets them pass within the exploration budget's share of the plan. Evidence
 * reports how each sub-goal was matched (terms / embedder) so the rule share is visible.
 */
import type { CognitiveMap, JsonValue, Position, StepEvent } from '@wayfinder/contracts';
import type { SyncEmbedder } from '@wayfinder/embeddings';
import type { DetectionContext, DeviationDraft, StepDetector } from '../types';
import { textSimilarity, type TextSimilarity } from './text-similarity';

/** Words that say nothing about what a sub-goal is about: they never make a match on their own. */
const STOP = new Set(
  ('a an the of to in on at for from with and or by as is are be it this that these those then than into about over ' +
    'find get make do use read write check review look collect gather search fetch open list show create build prepare ' +
    'summarize summary report analyze analysis compare write-up task step steps work result results final answer data info ' +
    'information some more most all any each every other new good best first next last also via using based one two three').split(' '),
);
const CJK_STOP = new Set(['进行', '完成', '一个', '一份', '相关', '内容', '信息', '数据', '结果', '报告', '分析', '整理', '收集', '查找', '搜索', '阅读', '撰写', '编写', '生成', '输出']);

function stem(word: string): string {
  return word.replace(/(?:ies)$/, 'y').replace(/(?:ing|ed|es|s)$/, '');
}

/** Content terms: English words (stemmed, stop words dropped) and CJK bigrams. */
export function contentTerms(text: string): Set<string> {
  const terms = new Set<string>();
  const lower = text.toLowerCase();
  for (const word of lower.match(/[a-z][a-z0-9-]{2,}/g) ?? []) if (!STOP.has(word)) terms.add(stem(word));
  for (const run of lower.match(/[\u4e00-\u9fff]+/g) ?? []) {
    for (let i = 0; i + 2 <= run.length; i++) {
      const bigram = run.slice(i, i + 2);
      if (!CJK_STOP.has(bigram)) terms.add(bigram);
    }
  }
  return terms;
}

interface Target {
  kind: 'anchor' | 'milestone' | 'goal';
  id: string;
  text: string;
  terms: Set<string>;
}

export type SubgoalMatch = { id: string; text: string; servedBy?: string; method: 'anchors' | 'terms' | 'embedder' | 'none'; similarity?: number };

export class PlanOffGoalDetector implements StepDetector {
  readonly name = 'plan_off_goal' as const;
  private readonly targets = new WeakMap<CognitiveMap, Target[]>();
  private readonly similarity: TextSimilarity;

  constructor(embedder: SyncEmbedder) {
    this.similarity = textSimilarity(embedder);
  }

  onStep(step: StepEvent, _position: Position | undefined, ctx: DetectionContext): DeviationDraft[] {
    const settings = ctx.policy.planCheck;
    if (!settings.enabled || step.kind !== 'plan' || !ctx.map) return [];
    const subgoals = step.plan.subgoals;
    if (subgoals.length === 0) return [];
    const matches = subgoals.map((s) => this.match(ctx.map as CognitiveMap, s, settings.threshold));
    const off = matches.filter((m) => m.method === 'none');
    if (off.length === 0) return [];
    const names = off.map((m) => `${m.id} ("${m.text.slice(0, 120)}")`).join(', ');
    const byMethod = (method: SubgoalMatch['method']) => matches.filter((m) => m.method === method).length;
    return [
      {
        detector: 'plan_off_goal',
        level: 'warning',
        count: off.length,
        atSeq: step.seq,
        loopStartSeq: step.seq,
        evidence: {
          subgoals: subgoals.length,
          offGoal: off.map((m): JsonValue => ({ id: m.id, text: m.text.slice(0, 300) })),
          matchedBy: { anchors: byMethod('anchors'), terms: byMethod('terms'), embedder: byMethod('embedder') },
        },
        message: `${off.length} of ${subgoals.length} sub-goals serve no anchor or milestone: ${names}. Drop them or justify them.`,
      },
    ];
  }

  /** How one sub-goal serves the map, if it does. */
  match(map: CognitiveMap, subgoal: { id: string; text: string; anchors?: string[] }, threshold: number): SubgoalMatch {
    const base = { id: subgoal.id, text: subgoal.text };
    const refs = (subgoal.anchors ?? []).map((a) => a.toLowerCase());
    const named = map.anchors.find((a) => refs.some((r) => r === a.id.toLowerCase() || r === a.unit.toLowerCase() || a.text.toLowerCase().includes(r)));
    if (named) return { ...base, servedBy: named.id, method: 'anchors' };
    const targets = this.targetsOf(map);
    const terms = contentTerms(subgoal.text);
    const byTerms = targets.find((t) => [...terms].some((term) => t.terms.has(term)));
    if (byTerms) return { ...base, servedBy: byTerms.id, method: 'terms' };
    let best: { id: string; similarity: number } | undefined;
    for (const t of targets) {
      const similarity = this.similarity(subgoal.text, t.text);
      if (!best || similarity > best.similarity) best = { id: t.id, similarity };
    }
    if (best && best.similarity >= threshold) return { ...base, servedBy: best.id, method: 'embedder', similarity: best.similarity };
    return { ...base, method: 'none' };
  }

  private targetsOf(map: CognitiveMap): Target[] {
    let targets = this.targets.get(map);
    if (!targets) {
      const make = (kind: Target['kind'], id: string, text: string): Target => ({ kind, id, text, terms: contentTerms(text) });
      targets = [
        ...map.anchors.map((a) => make('anchor', a.id, `${a.text} ${a.unit}`)),
        ...map.milestones.map((m) => make('milestone', m.id, m.description)),
        make('goal', 'goal', map.goal),
      ];
      this.targets.set(map, targets);
    }
    return targets;
  }
}
