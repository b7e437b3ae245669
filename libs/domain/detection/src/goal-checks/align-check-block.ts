/**
 * The agent's alignment self-check, as the charter asks for it (libs/domain/memory charter template):
 *
 *   [ALIGN-CHECK]
 *   1. Still serving the goal? yes/no — why
 *   2. Did the last steps advance the current sub-task? yes/no — why
 *   3. Any hard constraint violated? no/yes — which
 *   [/ALIGN-CHECK]
 *
 * Answers in English or Chinese ("是/否", "没有", "违反了"). Questions are recognized by their words
 * (goal / advance / constraint, 目标 / 推进 / 约束), else by their position. Failing answers: "no" to the
 * first two, "yes" to the third. Unreadable answers are neither (never a false alarm from odd wording).
 */

export type AlignQuestion = 'goal' | 'progress' | 'constraints';

export interface AlignAnswer {
  question: AlignQuestion;
  /** The whole line as the agent wrote it. */
  line: string;
  answer: 'yes' | 'no' | 'unknown';
  failing: boolean;
}

const OPEN = /\[ALIGN[-_ ]?CHECK\]/i;
const CLOSE = /\[\/ALIGN[-_ ]?CHECK\]/i;
const MAX_BLOCK = 4000;

const QUESTION_WORDS: Array<[AlignQuestion, RegExp]> = [
  ['constraints', /constraint|violat|rule|约束|违反|违背|限制/i],
  ['progress', /advanc|progress|sub-?task|last steps|推进|进展|子任务|最近的步骤|前进/i],
  ['goal', /goal|serv|on track|aligned|目标|服务|偏离/i],
];
const ORDER: AlignQuestion[] = ['goal', 'progress', 'constraints'];

const NO_EN = /^(?:no|nope|not really|not yet|false|n|none|never|✗|❌|×)\b/i;
const YES_EN = /^(?:yes|yep|yeah|true|y|✓|✔|✅)\b/i;
const NO_ZH = /^(?:否|不是|没有|无|未|不|没)/;
const YES_ZH = /^(?:是|是的|有|对|违反了|已违反)/;

function answerOf(text: string): 'yes' | 'no' | 'unknown' {
  const t = text.replace(/^[\s:：\-—–*>`"'“”]+/, '').trim();
  if (NO_EN.test(t) || NO_ZH.test(t)) return 'no';
  if (YES_EN.test(t) || YES_ZH.test(t)) return 'yes';
  return 'unknown';
}

/** The text of the last [ALIGN-CHECK] block of a message, if it has one. */
export function alignCheckBlock(text: string): string | undefined {
  const open = [...text.matchAll(new RegExp(OPEN.source, 'gi'))].pop();
  if (!open) return undefined;
  const rest = text.slice((open.index ?? 0) + open[0].length, (open.index ?? 0) + open[0].length + MAX_BLOCK);
  const close = CLOSE.exec(rest);
  const body = close ? rest.slice(0, close.index) : rest.split(/\n\s*\n/)[0];
  return body.trim();
}

/** Reads the answers of a block; lines that hold no question are skipped. */
export function readAlignCheck(block: string): AlignAnswer[] {
  const lines = block.split(/\n|(?<=[.。;；])\s+(?=\d[.)、])/).map((l) => l.trim()).filter((l) => l.length > 0);
  const out: AlignAnswer[] = [];
  lines.forEach((line, i) => {
    const body = line.replace(/^(?:[-*•]|\d{1,2}[.)、:：]|q\d[.:：]?)\s*/i, '');
    const qEnd = body.search(/[?？]/);
    const colon = body.search(/[:：]/);
    const split = qEnd >= 0 ? qEnd : colon;
    const questionText = split >= 0 ? body.slice(0, split) : body;
    const answerText = split >= 0 ? body.slice(split + 1) : '';
    const question = QUESTION_WORDS.find(([, re]) => re.test(questionText))?.[0] ?? (split >= 0 ? ORDER[out.length] ?? ORDER[i] : undefined);
    if (!question) return;
    const answer = answerOf(answerText);
    const failing = question === 'constraints' ? answer === 'yes' : answer === 'no';
    out.push({ question, line: line.slice(0, 400), answer, failing });
  });
  return out;
}
