/**
 * Anchor progress: how far the run has come toward each quantitative anchor ("competitors 3/5"). The rule
 * is cheap and explainable, counted over the agent's outputs and observations:
 * - length anchors (字/words/characters): the longest single output, in that unit;
 * - every other anchor: the larger of (a) the highest explicit count stated by the agent ("found 3
 *   competitors", "已收集3个数据源"), and (b) distinct items seen: distinct URLs for source-like units,
 *   distinct list items of an output that names the unit.
 * Counts never go down.
 */
import type { Anchor, StepEvent } from '@wayfinder/contracts';
import { EN_NUMBER_WORD, parseNumber } from './numerals';
import { trimEnd } from './ids';
import { argsText, stepText } from './step-text';

export interface AnchorTally {
  count: number;
  /** Distinct item keys seen (capped: a count past the cap stops mattering). */
  items: string[];
}

export type AnchorProgress = Readonly<Record<string, AnchorTally>>;

const MAX_ITEMS = 256;
const LENGTH_UNIT = /^(?:字|字符|词|words?|characters?|chars?|tokens?)$/i;
const REQUIREMENT_BEFORE = /(?:least|most|than|minimum|maximum|need|needs|require[sd]?|up to|exactly|至少|不少于|不低于|最多|不超过|需要|要求|恰好)\s*$/i;
const SOURCE_UNIT = /source|reference|citation|link|url|paper|article|来源|数据源|出处|引用|文献|链接|网址|参考/i;

export type AnchorStatus = 'met' | 'pending' | 'exceeded';

export function emptyProgress(anchors: readonly Anchor[]): AnchorProgress {
  return Object.fromEntries(anchors.map((a) => [a.id, { count: 0, items: [] }]));
}

/** Status of one anchor at a count: `exceeded` only for at-most/exactly anchors gone past their target. */
export function anchorStatus(anchor: Anchor, count: number): AnchorStatus {
  if (anchor.comparator === 'atMost') return count > anchor.target ? 'exceeded' : 'met';
  if (anchor.comparator === 'exactly') return count === anchor.target ? 'met' : count > anchor.target ? 'exceeded' : 'pending';
  return count >= anchor.target ? 'met' : 'pending';
}

export function anchorCounts(progress: AnchorProgress): Record<string, number> {
  return Object.fromEntries(Object.entries(progress).map(([id, t]) => [id, t.count]));
}

function lengthIn(unit: string, text: string): number {
  if (/^(?:字|字符)$/.test(unit) || /^char/i.test(unit)) {
    const cjk = text.match(/[\u3400-\u9fff]/g)?.length ?? 0;
    const words = text.replace(/[\u3400-\u9fff]/g, ' ').match(/[A-Za-z0-9]+/g)?.length ?? 0;
    return /^char/i.test(unit) ? text.replace(/\s/g, '').length : cjk + words;
  }
  return text.match(/[A-Za-z0-9\u3400-\u9fff]+(?:['’-][A-Za-z]+)*/g)?.length ?? 0;
}

function explicitCount(anchor: Anchor, text: string): number {
  const unit = anchor.unit.split(/\s+/).pop() ?? anchor.unit;
  if (!unit) return 0;
  const stem = unit.replace(/(?:es|s)$/i, '');
  const esc = stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(\\d{1,9}|[零一二两三四五六七八九十百千]{1,8}|\\b${EN_NUMBER_WORD}\\b)\\s{0,3}(?:个|篇|条|项|家|份|位|名|种)?\\s{0,3}(?:[\\w\\u4e00-\\u9fa5-]{1,24}\\s{1,3}){0,2}?${esc}`, 'gi');
  let best = 0;
  for (const m of text.slice(0, 4000).matchAll(re)) {
    const before = text.slice(Math.max(0, (m.index ?? 0) - 16), m.index ?? 0);
    // A restated requirement ("at least 5 competitors") is not progress.
    if (REQUIREMENT_BEFORE.test(before)) continue;
    const n = parseNumber(m[1]);
    if (n !== undefined && n > best && n < 1_000_000) best = n;
  }
  return best;
}

function distinctItems(anchor: Anchor, text: string): string[] {
  if (SOURCE_UNIT.test(anchor.unit)) {
    return [...new Set((text.match(/https?:\/\/[^\s"'<>)\]]+/g) ?? []).map((u) => trimEnd(u, '.,;').toLowerCase()))];
  }
  if (!text.toLowerCase().includes((anchor.unit.split(/\s+/).pop() ?? anchor.unit).replace(/s$/i, '').toLowerCase())) return [];
  return [...text.matchAll(/^[ \t]*(?:\d{1,2}[.)、]|[-*•])[ \t]+(.{2,80})$/gm)].map((m) => m[1].trim().toLowerCase());
}

/** Updates the tallies with one step; returns the same object when nothing changed. */
export function updateAnchorProgress(anchors: readonly Anchor[], progress: AnchorProgress, step: StepEvent): AnchorProgress {
  const st = stepText(step, 16_000);
  if (!st || !st.text) return progress;
  const isOwnWords = st.part === 'message' ? step.kind === 'message' && step.message.role === 'assistant' : st.part === 'action';
  let next: Record<string, AnchorTally> | undefined;
  for (const anchor of anchors) {
    const tally = progress[anchor.id] ?? { count: 0, items: [] };
    let count = tally.count;
    let items = tally.items;
    if (LENGTH_UNIT.test(anchor.unit)) {
      // An action's tool name is not part of what it writes.
      const written = step.kind === 'action' ? argsText(step.action.args) : st.text;
      if (isOwnWords) count = Math.max(count, lengthIn(anchor.unit, written));
    } else {
      if (isOwnWords) count = Math.max(count, explicitCount(anchor, st.text));
      const fresh = distinctItems(anchor, st.text).filter((i) => !items.includes(i));
      if (fresh.length > 0) {
        items = [...items, ...fresh].slice(0, MAX_ITEMS);
        count = Math.max(count, items.length);
      }
    }
    if (count !== tally.count || items !== tally.items) {
      next ??= { ...progress };
      next[anchor.id] = { count, items };
    }
  }
  return next ?? progress;
}
