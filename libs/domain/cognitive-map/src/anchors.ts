/**
 * Quantitative anchors in goal text (DESIGN §5.1): "at least 5 competitors", "不少于10个数据源", "3000字",
 * "no more than 8 rounds", "exactly 5 bullet points", "3个维度". Years ("after 2023", "2024年以后") are
 * qualifiers on items, not anchors: `constraints.ts` keeps them. Regex scanning only: cheap and total.
 */
import type { Anchor, Comparator } from '@wayfinder/contracts';
import { stableId } from './ids';
import { CN_NUMERAL, EN_NUMBER_WORD, parseNumber } from './numerals';

interface Found {
  start: number;
  end: number;
  text: string;
  target: number;
  unit: string;
  comparator: Comparator;
  hard: boolean;
}

type Bound = { comparator: Comparator; shift: number };

const EN_COMPARATORS: Record<string, Bound> = {
  'at least': { comparator: 'atLeast', shift: 0 },
  'no less than': { comparator: 'atLeast', shift: 0 },
  'not less than': { comparator: 'atLeast', shift: 0 },
  'no fewer than': { comparator: 'atLeast', shift: 0 },
  'not fewer than': { comparator: 'atLeast', shift: 0 },
  'a minimum of': { comparator: 'atLeast', shift: 0 },
  'minimum of': { comparator: 'atLeast', shift: 0 },
  'more than': { comparator: 'atLeast', shift: 1 },
  'greater than': { comparator: 'atLeast', shift: 1 },
  'over': { comparator: 'atLeast', shift: 1 },
  'at most': { comparator: 'atMost', shift: 0 },
  'no more than': { comparator: 'atMost', shift: 0 },
  'not more than': { comparator: 'atMost', shift: 0 },
  'up to': { comparator: 'atMost', shift: 0 },
  'a maximum of': { comparator: 'atMost', shift: 0 },
  'maximum of': { comparator: 'atMost', shift: 0 },
  'within': { comparator: 'atMost', shift: 0 },
  'not exceeding': { comparator: 'atMost', shift: 0 },
  'not exceed': { comparator: 'atMost', shift: 0 },
  'fewer than': { comparator: 'atMost', shift: -1 },
  'less than': { comparator: 'atMost', shift: -1 },
  'under': { comparator: 'atMost', shift: -1 },
  'only': { comparator: 'atMost', shift: 0 },
  'exactly': { comparator: 'exactly', shift: 0 },
  'precisely': { comparator: 'exactly', shift: 0 },
};

const CN_COMPARATORS: Record<string, Bound> = {
  至少: { comparator: 'atLeast', shift: 0 },
  不少于: { comparator: 'atLeast', shift: 0 },
  不低于: { comparator: 'atLeast', shift: 0 },
  不小于: { comparator: 'atLeast', shift: 0 },
  最少: { comparator: 'atLeast', shift: 0 },
  起码: { comparator: 'atLeast', shift: 0 },
  多于: { comparator: 'atLeast', shift: 1 },
  超过: { comparator: 'atLeast', shift: 1 },
  大于: { comparator: 'atLeast', shift: 1 },
  高于: { comparator: 'atLeast', shift: 1 },
  至多: { comparator: 'atMost', shift: 0 },
  最多: { comparator: 'atMost', shift: 0 },
  不超过: { comparator: 'atMost', shift: 0 },
  不得超过: { comparator: 'atMost', shift: 0 },
  不能超过: { comparator: 'atMost', shift: 0 },
  不要超过: { comparator: 'atMost', shift: 0 },
  不可超过: { comparator: 'atMost', shift: 0 },
  不多于: { comparator: 'atMost', shift: 0 },
  不高于: { comparator: 'atMost', shift: 0 },
  不大于: { comparator: 'atMost', shift: 0 },
  少于: { comparator: 'atMost', shift: -1 },
  低于: { comparator: 'atMost', shift: -1 },
  小于: { comparator: 'atMost', shift: -1 },
  仅: { comparator: 'atMost', shift: 0 },
  恰好: { comparator: 'exactly', shift: 0 },
  正好: { comparator: 'exactly', shift: 0 },
  刚好: { comparator: 'exactly', shift: 0 },
  整整: { comparator: 'exactly', shift: 0 },
};

const CN_SUFFIXES: Record<string, Bound> = {
  以上: { comparator: 'atLeast', shift: 0 },
  及以上: { comparator: 'atLeast', shift: 0 },
  以下: { comparator: 'atMost', shift: 0 },
  以内: { comparator: 'atMost', shift: 0 },
  之内: { comparator: 'atMost', shift: 0 },
};

const HEDGES = /(?:\b(?:about|around|approximately|roughly|ideally|preferably|try to|some)\s*$|~\s*$|(?:约|大约|大概|尽量|最好)\s*$)/i;
const CN_HEDGE_SUFFIX = /^(?:左右|上下)/;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alternation = (keys: string[]) =>
  keys
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');

const EN_NUM = `\\d{1,3}(?:,\\d{3}){1,4}|\\d{1,12}(?:\\.\\d{1,6})?k?|${EN_NUMBER_WORD}`;
const EN_PATTERN = new RegExp(
  `(?<![\\w.,])(?:(${alternation(Object.keys(EN_COMPARATORS))})\\s{1,3})?(${EN_NUM})(\\+|\\s{1,3}or\\s{1,3}more|\\s{1,3}or\\s{1,3}fewer|\\s{1,3}or\\s{1,3}less)?([\\s-]{1,3}|(?=%))(%|[a-z][a-z-]{0,40})`,
  'gi',
);

const CN_MEASURES = [
  '万字', '千字', '字符', '小时', '分钟', '个', '篇', '条', '项', '家', '份', '次', '轮', '字', '页', '张', '位',
  '名', '种', '章', '节', '段', '点', '本', '部', '句', '行', '步', '天', '周', '秒', '元', '词', '款', '组', '类',
  '所', '台', '件', '道', '题', '处', '首', '场', '期', '座', '幅', '封', '笔', '轮次',
];
const CN_PATTERN = new RegExp(
  `(${alternation(Object.keys(CN_COMPARATORS))})?\\s{0,3}(\\d{1,12}(?:\\.\\d{1,6})?|${CN_NUMERAL})\\s{0,3}(${alternation(CN_MEASURES)})`,
  'g',
);

/** Characters that end a Chinese unit noun: particles, conjunctions, punctuation, digits. */
const CN_NOUN_STOP = /[的和与及或并且以等在是从到给中里后前内外每各共得地了着过，,。.；;、：:！!？?（）()\s\d"“”'‘’《》【】[\]{}<>/|-]/;
const CN_NOUN_MAX = 6;
/** Verbs that commonly follow a counted noun and end it: "3个维度分析…" → 维度. */
const CN_VERB_STOP = /^(?:分析|进行|完成|覆盖|引用|输出|生成|列出|撰写|编写|提供|包含|说明|介绍|描述|总结|评估|比较|展开|研究|调研|阐述|收集|整理|提交|完成|给出|得到|获取|输入|使用)/;

/** Words that end an English unit: function words, and verbs that commonly follow a counted noun. */
const EN_UNIT_STOP = new Set([
  'a', 'an', 'the', 'of', 'in', 'on', 'at', 'to', 'for', 'from', 'with', 'and', 'or', 'that', 'which', 'who',
  'per', 'each', 'by', 'about', 'into', 'than', 'is', 'are', 'was', 'were', 'be', 'as', 'it', 'this', 'these',
  'those', 'if', 'then', 'but', 'so', 'not', 'no', 'do', 'does', 'must', 'should', 'will', 'can', 'may', 'after',
  'before', 'since', 'until', 'more', 'less', 'fewer', 'or', 'other', 'times',
]);
const LENGTH_UNITS = /^(word|character|page|token|sentence|paragraph)s?$/i;
const ORDINAL_BEFORE = /(?:\b(?:step|version|v|phase|stage|chapter|section|page|figure|fig|table|item|no|number|part|level|round|task|question)\.?\s*|#\s*)$/i;
const YEAR_BEFORE = /\b(?:after|before|since|until|till|from|in|by|during|between|through|circa)\s*$/i;

function isYear(n: number): boolean {
  return Number.isInteger(n) && n >= 1900 && n <= 2100;
}

function englishUnit(raw: string): string {
  if (raw === '%') return '%';
  const words = raw.toLowerCase().split(/\s+/);
  const kept: string[] = [];
  for (const word of words) {
    if (EN_UNIT_STOP.has(word)) break;
    kept.push(word);
    // A plural noun ends the unit: "bullet points are" stops at "points".
    if (/[a-z]{2,}s$/.test(word) && !/(?:ss|us|is)$/.test(word)) break;
  }
  return kept.join(' ');
}

function scanEnglish(text: string): Found[] {
  const found: Found[] = [];
  for (const m of text.matchAll(EN_PATTERN)) {
    const start = m.index ?? 0;
    const [whole, cmpRaw, numRaw, plus, separator, firstWord] = m;
    const value = parseNumber(numRaw);
    if (value === undefined) continue;
    const before = text.slice(Math.max(0, start - 24), start);
    // Two more words may belong to the unit ("bullet points"); they are read here, not consumed by the
    // regex, so a comparator among them ("… and fewer than 10 …") still starts the next match.
    const more = /^(?:\s{1,3}[a-z][a-z-]{0,40}){0,2}/i.exec(text.slice(start + whole.length, start + whole.length + 100))?.[0] ?? '';
    const unitRaw = firstWord + more;
    const lengthUnit = LENGTH_UNITS.exec(firstWord);
    const unit = lengthUnit ? `${lengthUnit[1].toLowerCase()}s` : englishUnit(unitRaw);
    if (!unit) continue;
    let bound: Bound | undefined = cmpRaw ? EN_COMPARATORS[cmpRaw.toLowerCase()] : undefined;
    if (!bound && plus) bound = /fewer|less/i.test(plus) ? { comparator: 'atMost', shift: 0 } : { comparator: 'atLeast', shift: 0 };
    if (!bound) {
      if (ORDINAL_BEFORE.test(before) || YEAR_BEFORE.test(before)) continue;
      const counted = lengthUnit !== null || separator.includes('-');
      if ((isYear(value) && !counted) || value <= 1) continue;
    }
    if (isYear(value) && /^years?$/.test(unit)) continue;
    const unitText = lengthUnit ? firstWord : unit;
    const unitAt = (whole.length - firstWord.length) + unitRaw.toLowerCase().indexOf(unitText.split(' ')[0]);
    const end = start + Math.max(whole.length, unitAt + unitText.length);
    found.push(makeFound(text, start, end, value, unit, bound, before));
  }
  return found;
}

function scanChinese(text: string): Found[] {
  const found: Found[] = [];
  for (const m of text.matchAll(CN_PATTERN)) {
    const start = m.index ?? 0;
    const [whole, cmpRaw, numRaw, measure] = m;
    const value = parseNumber(numRaw);
    if (value === undefined) continue;
    const before = text.slice(Math.max(0, start - 8), start);
    if (/第\s*$/.test(before) || /步骤\s*$/.test(before)) continue;
    let end = start + whole.length;
    let bound: Bound | undefined = cmpRaw ? CN_COMPARATORS[cmpRaw] : undefined;
    const takeSuffix = () => {
      for (const [suffix, b] of Object.entries(CN_SUFFIXES)) {
        if (text.startsWith(suffix, end)) {
          bound = bound ?? b;
          end += suffix.length;
          return;
        }
      }
    };
    takeSuffix();
    let noun = '';
    // A verb ends the noun, or stands where it would start ("10轮以内完成问答" → 轮).
    while (end < text.length && noun.length < CN_NOUN_MAX && !CN_NOUN_STOP.test(text[end])) {
      if (CN_VERB_STOP.test(text.slice(end, end + 2))) break;
      noun += text[end++];
    }
    takeSuffix();
    // A bare "一个报告" is an article, not a count.
    if (!bound && /^[一两]$/.test(numRaw)) continue;
    if (!bound && value === 1) continue;
    // "分三步：" introduces a list; it counts the list, not something to produce.
    if (!bound && /^\s*[:：]/.test(text.slice(end))) continue;
    const unit = measure === '万字' || measure === '千字' ? '字' : noun || measure;
    const target = measure === '万字' ? value * 10000 : measure === '千字' ? value * 1000 : value;
    const hedged = CN_HEDGE_SUFFIX.test(text.slice(end));
    const f = makeFound(text, start, end, target, unit, bound, before);
    if (hedged) f.hard = false;
    found.push(f);
  }
  return found;
}

function makeFound(text: string, start: number, end: number, value: number, unit: string, bound: Bound | undefined, before: string): Found {
  const b = bound ?? { comparator: 'atLeast' as const, shift: 0 };
  const shift = Number.isInteger(value) ? b.shift : 0;
  return {
    start,
    end,
    text: text.slice(start, end).trim(),
    target: Math.max(0, value + shift),
    unit: unit.slice(0, 64),
    comparator: b.comparator,
    hard: !HEDGES.test(before),
  };
}

/** Every quantitative anchor of a text, in order of appearance, with stable ids `a<k>-<unit slug|hash>`. */
export function extractAnchors(text: string): Anchor[] {
  const all = [...scanEnglish(text), ...scanChinese(text)].sort((a, b) => a.start - b.start);
  const kept: Found[] = [];
  for (const f of all) {
    const last = kept[kept.length - 1];
    if (last && f.start < last.end) continue;
    if (kept.some((k) => k.target === f.target && k.unit === f.unit && k.comparator === f.comparator)) continue;
    kept.push(f);
  }
  return kept.map((f, i) => ({
    id: stableId('a', i + 1, f.unit),
    text: f.text.slice(0, 1024),
    target: f.target,
    unit: f.unit,
    comparator: f.comparator,
    hard: f.hard,
  }));
}
