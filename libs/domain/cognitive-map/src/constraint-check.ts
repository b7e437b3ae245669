/**
 * Checking actions and final outputs against compiled constraint rules (constraint-rules.ts). Pure: the
 * facts a rule needs about the run so far (files read, files the run created, calls per category) are
 * passed in by the caller, which keeps them per agent run.
 */
import type { JsonValue } from '@wayfinder/contracts';
import { type CompiledConstraint, type ConstraintRule, type FieldFormat, toolCategory, toolTokens, type ToolCategory } from './constraint-rules';

export interface RunFacts {
  /** Paths the run read (its inputs), normalized by `normalizePath`. */
  readonly readPaths: ReadonlySet<string>;
  /** Paths the run wrote before it ever read them: its own outputs, free to rewrite. */
  readonly ownPaths: ReadonlySet<string>;
}

export interface RuleViolation {
  constraint: CompiledConstraint;
  rule: ConstraintRule;
  /** One sentence: what broke the rule. */
  reason: string;
}

const PATH_KEYS = /^(?:path|paths|file|files|filename|file_name|filepath|file_path|target|target_file|dest|destination|to|src|source|output|output_path|input|uri|location|name)$/i;

export function normalizePath(path: string): string {
  return path.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+/g, '/').toLowerCase();
}

/** Paths an action's args name: values under path-like keys, and strings shaped like file paths. */
export function actionPaths(args: Record<string, JsonValue> | undefined): string[] {
  const out = new Set<string>();
  const visit = (value: JsonValue, key: string | undefined, depth: number) => {
    if (depth > 4) return;
    if (typeof value === 'string') {
      const looksLikePath = /^[\w./\\~-]{1,512}$/.test(value) && (/[/\\]/.test(value) || /\.[a-z0-9]{1,6}$/i.test(value));
      if ((key !== undefined && PATH_KEYS.test(key) && value.length <= 512 && !/\s/.test(value)) || looksLikePath) out.add(normalizePath(value));
    } else if (Array.isArray(value)) {
      for (const v of value.slice(0, 32)) visit(v, key, depth + 1);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value).slice(0, 64)) visit(v, k, depth + 1);
    }
  };
  if (args && typeof args === 'object') visit(args as JsonValue, undefined, 0);
  return [...out];
}

function samePath(a: string, b: string): boolean {
  const x = normalizePath(a);
  const y = normalizePath(b);
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

function argsWords(args: Record<string, JsonValue> | undefined): Set<string> {
  const words = new Set<string>();
  const visit = (value: JsonValue, depth: number) => {
    if (depth > 4 || words.size > 256) return;
    if (typeof value === 'string') for (const w of toolTokens(value.slice(0, 256))) words.add(w);
    else if (Array.isArray(value)) value.slice(0, 32).forEach((v) => visit(v, depth + 1));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value).slice(0, 64)) {
        for (const w of toolTokens(k)) words.add(w);
        visit(v, depth + 1);
      }
    }
  };
  if (args && typeof args === 'object') visit(args as JsonValue, 0);
  return words;
}

function plural(word: string): string[] {
  return [word, `${word}s`, `${word}es`, word.endsWith('y') ? `${word.slice(0, -1)}ies` : word];
}

/**
 * Whether a deletion tool is about the constraint's object: the tool or its args name the object, or the
 * tool names no object at all (`delete`, `drop`). `delete_files` is not about records.
 */
function aboutObject(tool: string, args: Record<string, JsonValue> | undefined, object: string): boolean {
  const tokens = toolTokens(tool);
  const forms = new Set(plural(object));
  if (tokens.some((t) => forms.has(t))) return true;
  const rest = tokens.filter((t) => toolCategory(t) === undefined);
  if (rest.length === 0) return true;
  if (['record', 'row', 'data', 'entry', 'item', 'document'].includes(object) && rest.some((t) => ['record', 'records', 'row', 'rows', 'entry', 'entries', 'item', 'items', 'document', 'documents', 'data'].includes(t))) return true;
  const words = argsWords(args);
  return [...forms].some((f) => words.has(f));
}

function matchesName(tool: string, name: string): boolean {
  const t = tool.toLowerCase();
  const n = name.toLowerCase();
  return t === n || t.endsWith(`.${n}`) || t.endsWith(`/${n}`) || t.endsWith(`__${n}`);
}

/** Which categories count toward a bound: the tool's own, and "search" for anything named like one. */
export function countsToward(category: ToolCategory | undefined, tool: string): boolean {
  if (category === undefined) return true;
  if (toolCategory(tool) === category) return true;
  return category === 'search' && toolTokens(tool).some((t) => t === 'search' || t === 'websearch' || t === 'serp');
}

/**
 * The first rule of a constraint that an action breaks, if any (count bounds are the caller's: it keeps
 * the counts, see `countsToward`).
 */
export function checkAction(constraint: CompiledConstraint, tool: string, args: Record<string, JsonValue> | undefined, facts: RunFacts): RuleViolation | undefined {
  for (const rule of constraint.rules) {
    if (rule.kind === 'forbiddenTool') {
      if (rule.names?.some((n) => matchesName(tool, n))) return { constraint, rule, reason: `"${tool}" is named by the constraint` };
      if (rule.category && toolCategory(tool) === rule.category && (rule.object === undefined || aboutObject(tool, args, rule.object))) {
        return { constraint, rule, reason: `"${tool}" is a ${rule.category} tool${rule.object ? ` acting on ${rule.object}s` : ''}` };
      }
    } else if (rule.kind === 'protectedResource') {
      const category = toolCategory(tool);
      if (category !== 'write' && category !== 'delete') continue;
      for (const path of actionPaths(args)) {
        if (rule.paths.some((p) => samePath(p, path))) return { constraint, rule, reason: `"${tool}" ${category === 'delete' ? 'deletes' : 'writes'} ${path}, which the constraint protects` };
        if (rule.inputs && facts.readPaths.has(path) && !facts.ownPaths.has(path)) {
          return { constraint, rule, reason: `"${tool}" ${category === 'delete' ? 'deletes' : 'writes'} ${path}, an input file the run read` };
        }
      }
    }
  }
  return undefined;
}

function stripFences(text: string): string {
  const t = text.trim();
  const fenced = /^```[a-z]*\s*\n?([\s\S]*?)\n?```$/i.exec(t);
  return (fenced ? fenced[1] : t).trim();
}

function parseJson(text: string): JsonValue | undefined {
  const body = stripFences(text);
  if (!/^[[{]/.test(body)) return undefined;
  try {
    return JSON.parse(body) as JsonValue;
  } catch {
    return undefined;
  }
}

const TABLE_ROW = /^\s*\|.*\|\s*$/m;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$/m;

function findField(value: JsonValue, field: string, depth = 0): JsonValue[] {
  if (depth > 6 || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.slice(0, 256).flatMap((v) => findField(v, field, depth + 1));
  const out: JsonValue[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (k.toLowerCase() === field.toLowerCase()) out.push(v);
    else out.push(...findField(v, field, depth + 1));
  }
  return out;
}

const FORMAT_TESTS: Record<FieldFormat, (v: JsonValue) => boolean> = {
  date: (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(v.trim()),
  email: (v) => typeof v === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()),
  url: (v) => typeof v === 'string' && /^https?:\/\/\S+$/.test(v.trim()),
  number: (v) => typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))),
};

function fieldValues(output: string, field: string): JsonValue[] {
  const json = parseJson(output);
  if (json !== undefined) return findField(json, field);
  const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(?:^|[\\s,{"'])${escaped}["']?\\s*[:：=]\\s*["']?([^"',\\n}]{1,200})`, 'gi');
  return [...output.matchAll(re)].map((m) => m[1].trim());
}

/** The first rule of a constraint that a final output breaks, if any. */
export function checkOutput(constraint: CompiledConstraint, output: string): RuleViolation | undefined {
  for (const rule of constraint.rules) {
    if (rule.kind === 'outputFormat') {
      if (rule.format === 'json' && parseJson(output) === undefined) return { constraint, rule, reason: 'the final output is not valid JSON' };
      if (rule.format === 'markdownTable' && !(TABLE_ROW.test(output) && TABLE_RULE.test(output))) return { constraint, rule, reason: 'the final output has no Markdown table' };
    } else if (rule.kind === 'fieldFormat') {
      const bad = fieldValues(output, rule.field).find((v) => !FORMAT_TESTS[rule.format](v));
      if (bad !== undefined) return { constraint, rule, reason: `field "${rule.field}" is ${JSON.stringify(bad).slice(0, 80)}, not a ${rule.format}` };
    }
  }
  return undefined;
}
