/**
 * Goal text → milestones, anchors and constraints (DESIGN §5.1), English and Chinese. Tries, in order:
 * numbered items ("1.", "1)", "(1)", "①", "Step 1:", "步骤一：", "第一步"), bullets, arrows ("->", "→"),
 * sequencing words (first/then/finally, 首先/然后/之后/最后); otherwise the whole goal is one milestone.
 * Never throws: any string yields a (possibly single-milestone) result.
 */
import { MAX_MILESTONES, type Anchor, type Constraint, type Milestone, type Validator } from '@wayfinder/contracts';
import { extractAnchors } from './anchors';
import { extractConstraintTexts, isConstraintText, isProcessBound, isProcessUnit, numberConstraints, splitClauses, splitSentences } from './constraints';
import { stableId, trimChars } from './ids';
import { parseNumber } from './numerals';

export type SegmentStrategy = 'numbered' | 'bullets' | 'arrows' | 'sequence' | 'single';

export interface ParsedGoal {
  milestones: Milestone[];
  anchors: Anchor[];
  constraints: Constraint[];
  strategy: SegmentStrategy;
  /** How many segments were folded into the last milestone to respect the 7-milestone cap (0 if none). */
  merged: number;
}

/** Goals are parsed from their first 20k characters: enough for any real goal, bounded for hostile input. */
const MAX_PARSE_CHARS = 20_000;
const MAX_DESCRIPTION = 1024;

interface Marker {
  n: number;
  start: number;
  end: number;
  lineStart: boolean;
}

const CIRCLED = '①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳';
const MARKER_PATTERN = new RegExp(
  [
    // 1. / 1) / 1、 / 1） / (1) / （1） — "1." needs a space after it so "3.5" is not a marker.
    String.raw`[(（](\d{1,2})[)）]`,
    String.raw`(?:^|(?<=[\s，,;；。:：]))(\d{1,2})(?:\.(?=\s)|[)）、]|:(?=\s))`,
    String.raw`(?:^|(?<=[\s，,;；。:：]))step\s*(\d{1,2})\s*[:.)：-]`,
    String.raw`步骤\s*([一二三四五六七八九十]{1,3}|\d{1,2})\s*[：:、.，,]?`,
    String.raw`第\s*([一二三四五六七八九十]{1,3}|\d{1,2})\s*步\s*[：:、.，,]?`,
    `([${CIRCLED}])`,
  ].join('|'),
  'gim',
);

function numberedMarkers(text: string): Marker[] {
  const all: Marker[] = [];
  for (const m of text.matchAll(MARKER_PATTERN)) {
    const raw = m.slice(1).find((g) => g !== undefined);
    if (raw === undefined) continue;
    const circled = CIRCLED.indexOf(raw);
    const n = circled >= 0 ? circled + 1 : parseNumber(raw);
    if (n === undefined) continue;
    const start = m.index ?? 0;
    const lineStart = /(?:^|\n)[ \t]*$/.test(text.slice(Math.max(0, start - 40), start));
    all.push({ n, start, end: start + m[0].length, lineStart });
  }
  // The longest run 1, 2, 3, … in order of appearance: stray numbers elsewhere are skipped.
  const run: Marker[] = [];
  for (const m of all) {
    if (m.n === run.length + 1 && (run.length === 0 || m.start >= run[run.length - 1].end)) run.push(m);
  }
  return run.length >= 2 ? run : [];
}

function segmentNumbered(text: string): string[] {
  const markers = numberedMarkers(text);
  if (markers.length < 2) return [];
  // An inline list inside a sentence ("handles 1) arrows and 2) lists") is one step, not a plan; an
  // inline list that opens the text or follows a colon is a plan.
  const preamble = text.slice(0, markers[0].start).trim();
  if (!markers[0].lineStart && preamble && !/[:：]$/.test(preamble)) return [];
  return markers.map((m, i) => {
    let body = text.slice(m.end, i + 1 < markers.length ? markers[i + 1].start : text.length);
    // A line-based list ends at its last line; what follows is not part of the last item.
    if (i === markers.length - 1 && m.lineStart) body = body.split(/\n\s*\n|\n(?=\S)/)[0];
    return body;
  });
}

function segmentBullets(text: string): string[] {
  const items = [...text.matchAll(/^[ \t]*[-*•·●▪–][ \t]+(.+)$/gm)].map((m) => m[1]);
  return items.length >= 2 ? items : [];
}

const ARROW = /\s*(?:-{1,2}>|→|⟶|=>|⇒|➡|➔)\s*/;

function segmentArrows(text: string): string[] {
  const parts = text.split(ARROW);
  if (parts.length < 2) return [];
  // The chain starts after the last sentence end or colon of the first part and stops at the first
  // sentence end of the last part; text around it is preamble or trailing constraints.
  const first = parts[0].split(/[。！？!?；;:：\n]|\.\s/).pop() ?? '';
  const lastParts = parts[parts.length - 1].split(/[。！？!?；;\n]|\.(?=\s|$)/);
  const last = lastParts[0];
  return [first, ...parts.slice(1, -1), last];
}

const EN_SEQUENCE =
  /(?:^|[,.;:!?，。；：]\s*|\s+and\s+)(?:and\s+)?\b(first(?:ly)?|then|next|after that|afterwards|subsequently|finally|lastly|second(?:ly)?|third(?:ly)?)\b[,:]?\s*|(?<=\S)\s+(then)\s+/gi;
const CN_SEQUENCE = /(?:^|(?<=[，,。；;：:\s]))(首先|其次|随后|之后|最后|然后|接着)[，,：:]?|(然后|接着)[，,：:]?/g;

function segmentSequence(text: string): string[] {
  const cuts: { start: number; end: number; word: string }[] = [];
  for (const re of [EN_SEQUENCE, CN_SEQUENCE]) {
    for (const m of text.matchAll(re)) {
      const word = (m[1] ?? m[2] ?? '').toLowerCase();
      // English "then" inside "if … then" is a condition, not a sequence.
      if (word === 'then' && /\bif\b[^,.;]*$/i.test(text.slice(0, m.index))) continue;
      cuts.push({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, word });
    }
  }
  cuts.sort((a, b) => a.start - b.start);
  const ordering = cuts.filter((c) => !/^(?:first|firstly|首先)$/.test(c.word));
  if (ordering.length === 0) return [];
  const firstWord = cuts.findIndex((c) => /^(?:first|firstly|首先)$/.test(c.word));
  const segments: string[] = [];
  // Before an explicit "first" there is only preamble; without one, the text before the first cut is step 1.
  if (firstWord < 0) segments.push(text.slice(0, cuts[0].start));
  for (let i = 0; i < cuts.length; i++) {
    if (firstWord >= 0 && i < firstWord) continue;
    segments.push(text.slice(cuts[i].end, i + 1 < cuts.length ? cuts[i + 1].start : text.length));
  }
  return segments;
}

function cleanSegment(segment: string): string {
  const sentences = splitSentences(segment).filter((s) => !isConstraintText(s));
  const joined = sentences
    .join('. ')
    .replace(/\s+/g, ' ');
  return trimChars(joined, ',，;；:：.。、-–');
}

function singleDescription(text: string): string {
  const kept = cleanSegment(text);
  const whole = trimChars(text.replace(/\s+/g, ' '), ',，;；:：.。、');
  const description = kept || whole || 'goal';
  return clip(description, MAX_DESCRIPTION);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Folds segments past the cap into the last allowed one, in order. */
export function mergeTail(segments: readonly string[], max = MAX_MILESTONES): { segments: string[]; merged: number } {
  if (segments.length <= max) return { segments: [...segments], merged: 0 };
  const head = segments.slice(0, max - 1);
  const tail = segments.slice(max - 1).join('; ');
  return { segments: [...head, tail], merged: segments.length - max };
}

/** Milestones of a linear plan: each depends on the one before; validator = the agent's explicit signal. */
export function linearMilestones(descriptions: readonly string[], anchors: readonly Anchor[] = []): Milestone[] {
  const milestones: Milestone[] = [];
  descriptions.forEach((description, i) => {
    const id = stableId('m', i + 1, description);
    milestones.push({
      id,
      description: clip(description, MAX_DESCRIPTION),
      dependsOn: i === 0 ? [] : [milestones[i - 1].id],
      validator: defaultValidator(id, description, anchors),
    });
  });
  return milestones;
}

/** The agent's signal, or reaching the count of an anchor this milestone mentions. */
export function defaultValidator(milestoneId: string, description: string, anchors: readonly Anchor[]): Validator {
  const marker: Validator = { type: 'marker', milestoneId };
  const mentioned = anchors.filter((a) => a.comparator !== 'atMost' && description.includes(a.text));
  if (mentioned.length === 0) return marker;
  return { type: 'any', of: [marker, ...mentioned.map((a): Validator => ({ type: 'anchorCount', anchorId: a.id }))] };
}

/** Parses a goal text; total: any input, however large or strange, yields at least one milestone. */
export function parseGoal(goal: string): ParsedGoal {
  // Whitespace runs are collapsed first: besides tidying descriptions, it keeps every later pattern
  // linear (a `\s*` that starts inside a long run of spaces would rescan it from each position).
  const text = (typeof goal === 'string' ? goal : '')
    .slice(0, MAX_PARSE_CHARS)
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/\n(?: ?\n)+/g, '\n\n');
  // "最多调用5次" bounds the work (a constraint), it is not a quantity of the deliverable.
  const bounds = splitClauses(text).filter(isProcessBound);
  const anchors = extractAnchors(text).filter((a) => !(isProcessUnit(a.unit) && bounds.some((b) => b.includes(a.text))));
  const constraints = numberConstraints(extractConstraintTexts(text), 'goal');

  let strategy: SegmentStrategy = 'single';
  let segments: string[] = [];
  const attempts: [SegmentStrategy, (t: string) => string[]][] = [
    ['numbered', segmentNumbered],
    ['bullets', segmentBullets],
    ['arrows', segmentArrows],
    ['sequence', segmentSequence],
  ];
  for (const [name, segment] of attempts) {
    const cleaned = segment(text)
      .map(cleanSegment)
      .filter((s) => s.length > 0);
    if (cleaned.length >= 2) {
      strategy = name;
      segments = cleaned;
      break;
    }
  }
  if (segments.length === 0) segments = [singleDescription(text)];
  const { segments: capped, merged } = mergeTail(segments);
  return { milestones: linearMilestones(capped, anchors), anchors, constraints, strategy, merged };
}
