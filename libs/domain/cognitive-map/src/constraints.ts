/**
 * Hard constraints in goal text (DESIGN §5.1): "must not", "never", "do not", "only …", "不得", "不要",
 * "禁止", "必须", "只 …", year qualifiers on items ("after 2023", "2024年以后") and bounds on the work
 * itself ("call the search tool at most 5 times", "搜索最多调用5次"). Each clause carrying a marker is one
 * constraint; constraints are numbered c1, c2, … in the order the map lists them.
 *
 * A constraint is a prohibition or an obligation about how the work is done. A clause that states the
 * goal's quantities ("a report that must cover at least 5 competitors", "必须引用至少10个数据源") is the
 * goal's anchor, tracked on the goal board, not a constraint: an obligation carrying a deliverable anchor
 * is not counted, while a prohibition or a year qualifier still is.
 */
import type { Constraint } from '@wayfinder/contracts';
import { extractAnchors } from './anchors';
import { trimEnd } from './ids';
import { CN_NUMERAL, EN_NUMBER_WORD } from './numerals';

const EN_MARKERS =
  /\b(?:must|mustn't|never|do not|don't|does not|doesn't|should not|shouldn't|cannot|can't|can not|may not|not allowed|forbidden|prohibited|required to|is required|are required|always|avoid|without)\b|(?<!\bnot\s)(?<!\bif\s)\bonly\b/i;
const CN_MARKERS = /不得|不要|禁止|必须|只能|只用|只使用|只输出|只保留|只允许|只[从在对取读写做要]|仅|不能|不可|不允许|严禁|务必|切勿|勿|不准|须|避免/;
const YEAR_QUALIFIER =
  /\b(?:after|before|since|until|from|prior to|later than|earlier than|newer than|older than)\s+(?:19|20)\d{2}\b|(?:19|20)\d{2}\s*年?\s*(?:以后|之后|以前|之前|以来|后|前|起)/i;

/** Splits text into clauses: sentences, then commas, keeping "result.json" and "3.5" intact. */
export function splitClauses(text: string): string[] {
  return text
    .split(/[。！？!?；;\n]+|(?<=[a-zA-Z)\]"'])\.(?=\s|$)|[，,]/)
    .map((c) => cleanClause(c))
    .filter((c) => c.length > 0);
}

/** Splits text into sentences only (commas kept), for milestone descriptions. */
export function splitSentences(text: string): string[] {
  return text
    .split(/[。！？!?\n]+|(?<=[a-zA-Z)\]"'])\.(?=\s|$)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function cleanClause(clause: string): string {
  return trimClause(clause)
    .trimStart()
    .replace(/^(?:and|but|also|and also|并且|并|且|同时|另外|此外|而且)\s{0,8}/i, '')
    .trimStart();
}

function trimClause(clause: string): string {
  return trimEnd(clause, ',，。.；;:：');
}

/** Prohibitions: a clause with one of these stays a constraint even when it carries an anchor. */
const PROHIBITION_EN = /\b(?:must not|mustn't|never|do not|don't|does not|doesn't|should not|shouldn't|cannot|can't|can not|may not|not allowed|forbidden|prohibited|avoid)\b/i;
const PROHIBITION_CN = /不得|不要|禁止|严禁|切勿|勿|不准|不能|不可|不允许|避免/;
/** Units of the work itself (calls, attempts, rounds), not of the deliverable. */
const PROCESS_UNIT = /^(?:times?|calls?|tool calls?|api calls?|requests?|attempts?|retries|retry|queries|searches|steps?|rounds?|次|轮|轮次|遍|步)$/i;
const BOUND_NUM = `(?:\\d{1,6}|${EN_NUMBER_WORD}|${CN_NUMERAL})`;
const PROCESS_BOUND = new RegExp(
  [
    `\\b(?:at most|no more than|not more than|up to|a maximum of|maximum of|max(?:imum)?|fewer than|less than|not exceed(?:ing)?|within|under)\\s+${BOUND_NUM}\\s+(?:times|(?:tool |api )?calls|requests|attempts|retries|queries|searches)\\b`,
    `\\b${BOUND_NUM}\\s+(?:times|(?:tool |api )?calls|requests|attempts|retries|queries|searches)\\s+(?:at most|or fewer|or less|max(?:imum)?)\\b`,
    `(?:最多|至多|不超过|不得超过|不能超过|不要超过|不多于|少于)[^，,。；;]{0,8}?${BOUND_NUM}\\s*次`,
    `${BOUND_NUM}\\s*次\\s*(?:以内|之内|以下)`,
  ].join('|'),
  'i',
);

/** Whether an anchor counts the work (calls, rounds) rather than the deliverable. */
export function isProcessUnit(unit: string): boolean {
  return PROCESS_UNIT.test(unit);
}

/** Whether a clause bounds the work itself: how many times a tool may be called. */
export function isProcessBound(clause: string): boolean {
  return PROCESS_BOUND.test(clause);
}

/**
 * Whether a clause states a hard constraint: a bound on the work, or a marker (or a year qualifier) that
 * is not merely the obligation of the goal's own anchors.
 */
export function isConstraintClause(clause: string): boolean {
  if (PROCESS_BOUND.test(clause)) return true;
  const year = YEAR_QUALIFIER.test(clause);
  if (!year && !EN_MARKERS.test(clause) && !CN_MARKERS.test(clause)) return false;
  if (year || PROHIBITION_EN.test(clause) || PROHIBITION_CN.test(clause)) return true;
  return !extractAnchors(clause).some((a) => !PROCESS_UNIT.test(a.unit));
}

/** Prohibitions and obligations: a sentence made only of these is a rule, not a step of the plan. */
const STRONG_EN = /\b(?:must|mustn't|never|do not|don't|should not|shouldn't|cannot|can't|may not|not allowed|forbidden|prohibited|always|avoid)\b|^only\b/i;
const STRONG_CN = /不得|不要|禁止|必须|只能|严禁|切勿|勿|不准|不能|不可|不允许|务必|^只|^仅/;

/**
 * Whether every clause of a text is a prohibition or obligation: such a text is not a milestone. A step
 * that merely carries a qualifier ("search papers published after 2023", "without a letter grade") is.
 */
export function isConstraintText(text: string): boolean {
  const clauses = splitClauses(text);
  return clauses.length > 0 && clauses.every((c) => (STRONG_EN.test(c) || STRONG_CN.test(c)) && isConstraintClause(c));
}

/** The constraint clauses of a text, in order, without duplicates. */
export function extractConstraintTexts(text: string): string[] {
  const out: string[] = [];
  for (const clause of splitClauses(text)) {
    if (!isConstraintClause(clause)) continue;
    const t = clause.slice(0, 2048);
    if (!out.some((o) => normalizeConstraint(o) === normalizeConstraint(t))) out.push(t);
  }
  return out;
}

export function normalizeConstraint(text: string): string {
  return text.toLowerCase().replace(/[\s\p{P}]+/gu, '');
}

/** Numbers constraint texts as `c<k>` starting after `existing` (so appended ones never renumber old ones). */
export function numberConstraints(
  texts: readonly string[],
  source: Constraint['source'],
  existing: readonly Constraint[] = [],
): Constraint[] {
  const out: Constraint[] = [...existing];
  for (const text of texts) {
    const trimmed = text.trim().slice(0, 2048);
    if (!trimmed) continue;
    if (out.some((c) => normalizeConstraint(c.text) === normalizeConstraint(trimmed))) continue;
    out.push({ id: `c${out.length + 1}`, text: trimmed, hard: true, source });
  }
  return out;
}
