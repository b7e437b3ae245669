/**
 * Hard constraints in goal text (DESIGN §5.1): "must not", "never", "do not", "only …", "不得", "不要",
 * "禁止", "必须", "只 …", and year qualifiers on items ("after 2023", "2024年以后"). Each clause carrying a
 * marker is one constraint; constraints are numbered c1, c2, … in the order the map lists them.
 */
import type { Constraint } from '@wayfinder/contracts';
import { trimEnd } from './ids';

const EN_MARKERS =
  /\b(?:must|mustn't|never|do not|don't|does not|doesn't|should not|shouldn't|cannot|can't|can not|may not|not allowed|forbidden|prohibited|required to|is required|are required|always|avoid|without)\b|(?<!\bnot\s)(?<!\bif\s)\bonly\b/i;
const CN_MARKERS = /不得|不要|禁止|必须|只能|只用|只输出|只保留|只允许|只[从在对取读写做要]|仅|不能|不可|不允许|严禁|务必|切勿|勿|不准|须|避免/;
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

/** Whether a clause states a hard constraint (a marker or a year qualifier). */
export function isConstraintClause(clause: string): boolean {
  return EN_MARKERS.test(clause) || CN_MARKERS.test(clause) || YEAR_QUALIFIER.test(clause);
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
  return clauses.length > 0 && clauses.every((c) => STRONG_EN.test(c) || STRONG_CN.test(c));
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
