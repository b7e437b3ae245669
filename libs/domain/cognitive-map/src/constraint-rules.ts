/**
 * Constraint rules (DESIGN §5.1): each hard constraint of a map (task, goal text, user feedback) is
 * compiled, where one applies, into small declarative checks, in English and Chinese:
 * - `forbiddenTool`: a category of tool ("never call a delete API", "不得调用任何删除类接口"), optionally
 *   about one object ("do not delete any records"), or tool names written in the text (`drop_table`);
 * - `protectedResource`: a file that must not be written ("do not modify the source file", "不得修改源文件"):
 *   named paths, or the run's own input files (those it read before writing them);
 * - `outputFormat`: the final output must be JSON or a Markdown table ("最终输出必须为 JSON");
 * - `fieldFormat`: a field of the output must have a format ("dates must be in YYYY-MM-DD format");
 * - `countBound`: a tool category may be called at most N times ("搜索工具最多调用5次").
 * A prohibition that no rule covers is left to the embedder fallback (the action resembles the forbidden
 * thing); an obligation no rule covers is not checked (resembling an obligation is compliance).
 * Pure and total: any text compiles (possibly to no rule).
 */
import type { Constraint } from '@wayfinder/contracts';
import { isProcessBound } from './constraints';
import { CN_NUMERAL, EN_NUMBER_WORD, parseNumber } from './numerals';

export type ToolCategory = 'delete' | 'write' | 'publish' | 'search' | 'read' | 'execute';
export type OutputFormat = 'json' | 'markdownTable';
export type FieldFormat = 'date' | 'email' | 'url' | 'number';

export type ConstraintRule =
  | { kind: 'forbiddenTool'; category?: ToolCategory; object?: string; names?: string[] }
  | { kind: 'protectedResource'; paths: string[]; inputs: boolean }
  | { kind: 'outputFormat'; format: OutputFormat }
  | { kind: 'fieldFormat'; field: string; format: FieldFormat }
  | { kind: 'countBound'; category?: ToolCategory; max: number };

export interface CompiledConstraint {
  constraintId: string;
  /** The constraint's number in the charter (1-based, hard constraints in map order, feedback appended). */
  number: number;
  text: string;
  hard: boolean;
  /** A prohibition ("never", "不得"): what the embedder fallback may check when no rule applies. */
  prohibition: boolean;
  rules: ConstraintRule[];
}

export interface ConstraintCoverage {
  /** Constraints checked by at least one declarative rule. */
  rule: number;
  /** Prohibitions with no rule: checked by embedder similarity. */
  embedder: number;
  /** Obligations with no rule: not checked. */
  unchecked: number;
}

const PROHIBITION = /\b(?:must not|mustn't|never|do not|don't|does not|doesn't|should not|shouldn't|cannot|can't|can not|may not|not allowed|forbidden|prohibited|avoid|no)\b|不得|不要|禁止|严禁|切勿|勿|不准|不能|不可|不允许|避免|别/i;

/** Verbs by category; a tool name's first verb token decides its category. */
const EN_VERBS: Record<ToolCategory, readonly string[]> = {
  delete: ['delete', 'del', 'remove', 'rm', 'drop', 'destroy', 'purge', 'truncate', 'erase', 'wipe', 'unlink', 'rmdir', 'clear'],
  write: ['write', 'edit', 'modify', 'update', 'overwrite', 'change', 'save', 'patch', 'append', 'replace', 'rename', 'move', 'mv', 'put', 'set', 'alter', 'touch', 'insert', 'upsert', 'create', 'mkdir', 'upload', 'commit'],
  publish: ['publish', 'post', 'send', 'email', 'mail', 'deploy', 'release', 'tweet', 'notify', 'push', 'share'],
  search: ['search', 'query', 'google', 'bing', 'lookup', 'find', 'serp', 'websearch'],
  read: ['read', 'open', 'cat', 'get', 'load', 'view', 'list', 'ls', 'show', 'fetch', 'download', 'browse', 'head', 'tail', 'describe', 'inspect', 'scan', 'select', 'count', 'stat'],
  execute: ['exec', 'execute', 'run', 'shell', 'bash', 'sh', 'eval', 'spawn', 'invoke'],
};
const CN_VERBS: Record<ToolCategory, RegExp> = {
  delete: /删除|删掉|清空|清除|移除|销毁|抹除|删/,
  write: /修改|改动|改写|覆盖|覆写|写入|编辑|更改|变更|改/,
  publish: /发布|发送|上线|推送|群发/,
  search: /搜索|检索|查询|搜/,
  read: /读取|查看|打开|列出|浏览|下载/,
  execute: /执行|运行/,
};
/** English verbs as they appear in constraint text (inflected), by category. */
const EN_TEXT_VERB: Record<ToolCategory, RegExp> = {
  delete: /\b(?:delet(?:e|es|ed|ing|ion)|remov(?:e|es|ed|ing|al)|drop(?:s|ped|ping)?|destroy\w*|purg\w*|truncat\w*|eras\w*|wip(?:e|es|ed|ing))\b/i,
  write: /\b(?:modif(?:y|ies|ied|ying|ication)|edit\w*|overwrit\w*|chang(?:e|es|ed|ing)|writ(?:e|es|ing)|written|alter\w*|updat\w*|touch\w*|renam\w*|mov(?:e|es|ed|ing))\b/i,
  publish: /\b(?:publish\w*|post(?:s|ed|ing)?|send\w*|sent|email\w*|deploy\w*|releas\w*|tweet\w*)\b/i,
  search: /\b(?:search\w*|quer(?:y|ies|ied)|googl\w*|look(?:s|ed|ing)? up)\b/i,
  read: /\b(?:read\w*|open\w*|view\w*|list\w*)\b/i,
  execute: /\b(?:execut\w*|run(?:s|ning)?|shell commands?)\b/i,
};
/** The verb of a constraint names a tool, not an object: "a delete API", "删除类接口". */
const TOOLISH = /^(?:apis?|tools?|endpoints?|interfaces?|functions?|calls?|operations?|commands?|methods?|actions?|anything|things?|something)$/i;
/**
 * Objects that mean cleaning up content, not deleting stored resources: `remove_duplicates` dedups a
 * result set; it is not a delete API, whatever a deletion constraint is about.
 */
const CONTENT_CLEANUP = new Set(['duplicates', 'duplicate', 'dupes', 'dups', 'dedup', 'whitespace', 'whitespaces', 'blanks', 'blank', 'stopwords', 'noise', 'formatting', 'html', 'tags', 'markup', 'outliers', 'newlines', 'punctuation', 'accents', 'emojis', 'comments', 'prefix', 'suffix', 'background']);
const CN_OBJECTS: Record<string, string> = { 记录: 'record', 数据: 'data', 表: 'table', 数据表: 'table', 文件: 'file', 用户: 'user', 行: 'row', 订单: 'order', 邮件: 'email', 数据库: 'database' };
const EN_DETERMINERS = new Set(['any', 'the', 'all', 'a', 'an', 'existing', 'other', 'their', 'its', 'of', 'our', 'your', 'some', 'production', 'customer', 'user']);

const FILE_WORDS = /\b(?:files?|source|sources|inputs?|originals?|data ?sets?|documents?|paths?|directory|directories|folders?)\b|源文件|原文件|原始文件|输入文件|源数据|原始数据|文件/i;
const INPUT_WORDS = /\b(?:source|input|original|given|provided|raw)\b|源|原|输入|给定/i;
const PATH_TOKEN = /`([^`\s]{1,200})`|(?:^|[\s"'“（(])((?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)*\.[a-z0-9]{1,6})(?=$|[\s"'”）),，。;；:：])/gi;

/** Splits a tool name into lower-case word tokens: `deleteRecords`, `delete_records`, `db.delete-row`. */
export function toolTokens(tool: string): string[] {
  return tool
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9\u4e00-\u9fff]+/)
    .filter((t) => t.length > 0);
}

/** Tool names repeat on every call: their categories are kept (bounded; a pure function of the name). */
const CATEGORY_CACHE = new Map<string, ToolCategory | null>();
const CATEGORY_CACHE_SIZE = 4096;

/** The category of a tool: its first token that is a known verb, unless the tool cleans up content. */
export function toolCategory(tool: string): ToolCategory | undefined {
  const cached = CATEGORY_CACHE.get(tool);
  if (cached !== undefined) return cached ?? undefined;
  const category = categorize(tool);
  if (CATEGORY_CACHE.size >= CATEGORY_CACHE_SIZE) CATEGORY_CACHE.clear();
  CATEGORY_CACHE.set(tool, category ?? null);
  return category;
}

function categorize(tool: string): ToolCategory | undefined {
  const tokens = toolTokens(tool);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    for (const category of Object.keys(EN_VERBS) as ToolCategory[]) {
      if (!EN_VERBS[category].includes(token)) continue;
      if (category === 'delete' && tokens.slice(i + 1).some((t) => CONTENT_CLEANUP.has(t))) return undefined;
      return category;
    }
  }
  for (const category of Object.keys(CN_VERBS) as ToolCategory[]) if (CN_VERBS[category].test(tool)) return category;
  return undefined;
}

function singular(word: string): string {
  const w = word.toLowerCase();
  if (/ies$/.test(w)) return `${w.slice(0, -3)}y`;
  if (/(?:ss|us|is)$/.test(w)) return w;
  return w.replace(/e?s$/, (m) => (m === 'es' && /(?:x|ch|sh)es$/.test(w) ? '' : m === 'es' ? 'e' : ''));
}

function categoryOfText(text: string): ToolCategory | undefined {
  for (const category of ['delete', 'write', 'publish', 'search', 'execute'] as const) {
    if (EN_TEXT_VERB[category].test(text) || CN_VERBS[category].test(text)) return category;
  }
  return undefined;
}

/** The object of the constraint's verb ("delete any records" → record); undefined when it names a tool. */
function objectOf(text: string, category: ToolCategory): string | undefined {
  const verb = EN_TEXT_VERB[category].exec(text);
  if (verb) {
    const words = text.slice(verb.index + verb[0].length).toLowerCase().split(/[^a-z0-9-]+/).filter(Boolean);
    const noun = words.find((w) => !EN_DETERMINERS.has(w));
    if (noun && !TOOLISH.test(noun) && !/^(?:from|in|on|at|to|by|with|via|using)$/.test(noun)) return singular(noun);
    return undefined;
  }
  const cn = CN_VERBS[category].exec(text);
  if (!cn) return undefined;
  const rest = text.slice(cn.index + cn[0].length).replace(/^(?:任何|任意|所有|全部|现有|已有|其他|的)+/, '');
  for (const [word, object] of Object.entries(CN_OBJECTS).sort((a, b) => b[0].length - a[0].length)) if (rest.startsWith(word)) return object;
  return undefined;
}

function explicitToolNames(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/`([A-Za-z_][\w.-]{1,127})`|\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b/g)) {
    const name = m[1] ?? m[2];
    if (name && !/\.[a-z0-9]{1,6}$/i.test(name)) names.add(name);
  }
  return [...names];
}

function explicitPaths(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(PATH_TOKEN)) {
    const p = m[1] ?? m[2];
    if (p && (/\//.test(p) || /\.[a-z0-9]{1,6}$/i.test(p)) && !/^\d+(?:\.\d+)*$/.test(p)) out.add(p);
  }
  return [...out];
}

const FORMAT_CONTEXT = /\b(?:output|outputs|respond|response|responses|answer|answers|return|returns|reply|replies|result|results|format|formatted|print|write)\b|输出|回答|返回|回复|结果|格式|答案/i;
const JSON_WORD = /\bjson\b/i;
const TABLE_WORD = /\b(?:markdown|md)\s+tables?\b|\btables?\s+in\s+markdown\b|markdown\s*表格|表格形式|以表格|为表格|成表格|\btabular\b/i;

const FIELD_FORMATS: Array<[FieldFormat, RegExp]> = [
  ['date', /\b(?:iso[ -]?8601|yyyy-mm-dd|date)\b|日期/i],
  ['email', /\be-?mail(?: address)?\b|邮箱|电子邮件/i],
  ['url', /\b(?:url|link|https?)\b|链接|网址/i],
  ['number', /\b(?:number|numeric|integer|digits?)\b|数字|数值|整数/i],
];
const EN_FIELD = /\b(?:the\s+)?[`"']?([a-z_][\w.]{0,63})[`"']?\s+(?:field|column|key|value)s?\s+(?:must|should|has to|have to|needs? to)\s+(?:be|use|follow)\b|\b(?:field|column|key)\s+[`"']?([a-z_][\w.]{0,63})[`"']?\s+(?:must|should|has to|needs? to)\s+(?:be|use|follow)\b|\b[`"']?([a-z_][\w.]{0,63})[`"']?\s+(?:must|should|has to|needs? to)\s+(?:be\s+)?(?:in|an?|use|follow)\b/i;
const CN_FIELD = /[`"'“]?([A-Za-z_][\w.]{0,63}|[\u4e00-\u9fff]{1,8}?)[`"'”]?\s*(?:字段|列|键)?\s*(?:必须|须|应|应当|需要)\s*(?:为|是|使用|采用|符合)/;

function fieldRule(text: string): ConstraintRule | undefined {
  const format = FIELD_FORMATS.find(([, re]) => re.test(text))?.[0];
  if (!format) return undefined;
  const m = EN_FIELD.exec(text) ?? CN_FIELD.exec(text);
  const field = m ? (m[1] ?? m[2] ?? m[3]) : undefined;
  if (!field || /^(?:output|outputs|answer|response|result|it|all|every|each|输出|结果|最终输出|回答|答案)$/i.test(field)) return undefined;
  return { kind: 'fieldFormat', field: field.replace(/^the\s+/i, ''), format };
}

const BOUND_NUMBER = new RegExp(`(\\d{1,6}|${EN_NUMBER_WORD}|${CN_NUMERAL})\\s*(?:times|(?:tool |api )?calls|requests|attempts|retries|queries|searches|次)`, 'i');

function countRule(text: string): ConstraintRule | undefined {
  if (!isProcessBound(text)) return undefined;
  const m = BOUND_NUMBER.exec(text);
  const max = m ? parseNumber(m[1]) : undefined;
  if (max === undefined) return undefined;
  const strict = /\b(?:fewer|less) than\b|少于/i.test(text);
  const category = /\bsearch(?:es)?\b|搜索|检索/i.test(text) ? 'search' : categoryOfText(text);
  return { kind: 'countBound', ...(category && { category }), max: strict ? max - 1 : max };
}

/** The declarative rules of one constraint text (possibly none). */
export function compileConstraintRules(text: string): ConstraintRule[] {
  const rules: ConstraintRule[] = [];
  const prohibition = PROHIBITION.test(text);
  const count = countRule(text);
  if (count) return [count];

  if (FORMAT_CONTEXT.test(text) || /\bonly\b|只|仅/i.test(text)) {
    if (JSON_WORD.test(text) && !prohibition) rules.push({ kind: 'outputFormat', format: 'json' });
    else if (TABLE_WORD.test(text) && !prohibition) rules.push({ kind: 'outputFormat', format: 'markdownTable' });
  }
  const field = prohibition ? undefined : fieldRule(text);
  if (field && rules.length === 0) rules.push(field);
  if (!prohibition) return rules;

  const category = categoryOfText(text);
  const paths = explicitPaths(text);
  if ((category === 'write' || category === 'delete') && (paths.length > 0 || FILE_WORDS.test(text))) {
    const object = objectOf(text, category);
    // "do not modify the source file" protects files; "do not delete any records" forbids a tool.
    if (category === 'write' || paths.length > 0 || object === 'file' || object === 'source' || object === 'input') {
      return [{ kind: 'protectedResource', paths, inputs: paths.length === 0 || INPUT_WORDS.test(text) }];
    }
  }
  const names = explicitToolNames(text);
  if (category) {
    const object = objectOf(text, category);
    rules.push({ kind: 'forbiddenTool', category, ...(object && { object }), ...(names.length > 0 && { names }) });
  } else if (names.length > 0 && /\b(?:call|use|invoke|run)\b|调用|使用/i.test(text)) {
    rules.push({ kind: 'forbiddenTool', names });
  }
  return rules;
}

/** Compiles constraints in charter order: hard ones numbered 1, 2, … as the charter numbers them. */
export function compileConstraints(constraints: ReadonlyArray<Pick<Constraint, 'id' | 'text' | 'hard'>>, firstNumber = 1): CompiledConstraint[] {
  let n = firstNumber;
  return constraints.map((c) => ({
    constraintId: c.id,
    number: c.hard ? n++ : 0,
    text: c.text,
    hard: c.hard,
    prohibition: PROHIBITION.test(c.text),
    rules: compileConstraintRules(c.text),
  }));
}

export function constraintCoverage(compiled: readonly CompiledConstraint[]): ConstraintCoverage {
  const coverage: ConstraintCoverage = { rule: 0, embedder: 0, unchecked: 0 };
  for (const c of compiled) {
    if (c.rules.length > 0) coverage.rule++;
    else if (c.prohibition) coverage.embedder++;
    else coverage.unchecked++;
  }
  return coverage;
}
