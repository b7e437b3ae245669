/**
 * The assistant's claims that it is blocked or finished (PROJECT-RULES.md P9), read from its messages.
 * Small and conservative on purpose: a first-person statement that it cannot go on, or that the task is
 * complete, in the languages the goal parser reads (EN, ZH) and a few others; a condition ("if I cannot
 * proceed", "once the task is complete") is not a claim.
 */

export type ClaimKind = 'blocked' | 'finished';

const BLOCKED: readonly RegExp[] = [
  /\b(?:i|we)(?:'m| am|'re| are)\s+(?:now\s+|currently\s+|completely\s+)?(?:blocked|unable to (?:continue|proceed|go (?:on|any further)))\b/i,
  /\b(?:i|we)\s+(?:cannot|can't|can ?not|could not|couldn't)\s+(?:continue|proceed|go (?:on|any further)|make (?:any )?(?:further )?progress)\b/i,
  // "Unable to proceed: …" opening a message; a bare "cannot proceed" describes a thing more often than the agent.
  /^\s*(?:i am |i'm )?unable to (?:continue|proceed)\b/im,
  /\b(?:i|we)\s+(?:have to|must|need to|will have to)\s+stop (?:here|now|working)\b/i,
  /\b(?:i|we)(?:'m| am)? giv(?:e|ing) up\b/i,
  /无法继续|不能继续|无法进行下去|我被(?:阻塞|卡住)|我卡住了|只能停止/,
  /続行できません|先に進めません|作業を続けられません/,
  /\bno (?:puedo|podemos) (?:continuar|seguir|proceder)\b|\bestoy bloquead[oa]\b/i,
  /\bje (?:suis|me trouve) bloqu(?:ée|é|e)|\bje ne (?:peux|puis) pas (?:continuer|poursuivre)\b|\bimpossible de (?:continuer|poursuivre)\b/i,
  /\bich (?:kann nicht (?:weitermachen|fortfahren)|komme nicht weiter|bin blockiert)\b/i,
  /\bnão (?:consigo|posso) (?:continuar|prosseguir)\b|\bestou bloquead[oa]\b/i,
  /не могу продолжить|я заблокирован/i,
];

const FINISHED: readonly RegExp[] = [
  /\b(?:the|this|my|your) task (?:is |has been )?(?:now )?(?:complete|completed|finished|done)\b/i,
  /\ball (?:the )?(?:tasks|milestones|steps|work) (?:are |is |have been )?(?:now )?(?:complete|completed|done|finished)\b/i,
  /\b(?:i|we)(?:'ve| have)\s+(?:now\s+)?(?:successfully\s+)?(?:completed|finished) (?:the|this|all|my|every|your) (?:task|work|milestones?|steps)\b/i,
  /任务(?:已经?|都已)?完成|已全部完成|全部完成了/,
  /(?:タスク|作業)(?:は|が)?(?:すべて)?完了しました/,
  /\b(?:la )?tarea (?:está )?(?:completada|terminada)\b|\bhe terminado\b/i,
  /\b(?:la )?tâche (?:est )?(?:terminée|accomplie)\b|\bj'ai terminé/i,
  /\bAufgabe (?:ist )?(?:erledigt|abgeschlossen)\b|\bich bin fertig\b/i,
  /\btarefa (?:está )?(?:concluída|completa)\b/i,
];

/** A condition before the claim ("if", "once", "如果"…) within this many characters makes it no claim. */
const CONDITION_WINDOW = 24;
const CONDITION = /(?:\b(?:if|once|when|whenever|after|before|until|unless|whether|si|wenn|falls|sobald|cuando)\b|如果|一旦|假如|なら)[^.!?。\n]*$/i;
/** Claims are read at the start and the end of a message, where agents make them. */
const EDGE_CHARS = 2_000;

function claimIn(text: string, patterns: readonly RegExp[]): string | undefined {
  for (const re of patterns) {
    const m = re.exec(text);
    if (!m) continue;
    if (CONDITION.test(text.slice(Math.max(0, m.index - CONDITION_WINDOW), m.index))) continue;
    return m[0];
  }
  return undefined;
}

/** The claim an assistant message makes, if any, with the words that make it. Blocked wins over finished. */
export function readClaim(text: string): { kind: ClaimKind; phrase: string } | undefined {
  const edges = text.length <= 2 * EDGE_CHARS ? [text] : [text.slice(0, EDGE_CHARS), text.slice(-EDGE_CHARS)];
  for (const part of edges) {
    const blocked = claimIn(part, BLOCKED);
    if (blocked) return { kind: 'blocked', phrase: blocked };
  }
  for (const part of edges) {
    const finished = claimIn(part, FINISHED);
    if (finished) return { kind: 'finished', phrase: finished };
  }
  return undefined;
}
