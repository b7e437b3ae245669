/**
 * Context assembly (DESIGN §5.5): what goes in front of the agent's model, in this order — the charter,
 * the STATE block, the goal board, the few memories relevant to the current milestone, then the pruned
 * operation log (conclusions instead of raw tool output).
 *
 * Pruning: light always — once a milestone is behind the agent its log collapses to conclusions, and raw
 * output of the current milestone is cut short; heavy once the estimate reaches `heavyPruningAt` (default
 * 65%) of the token budget — only conclusions, user feedback and the last few raw entries stay, fewer
 * memories, then the oldest entries go until it fits under the threshold again. The charter (with every
 * constraint) and STATE are never pruned. STATE and goal board arrive rendered (by @wayfinder/cognitive-map).
 */
import { renderCharter, type Charter } from './charter';
import { estimateTokens, truncateToTokens } from './token-estimate';
import type { MemoryKind } from './vector-store.port';

export interface OperationLogEntry {
  seq: number;
  milestoneId: string | null;
  kind: 'action' | 'observation' | 'message' | 'feedback' | 'milestone' | 'compaction' | 'plan';
  /** The raw text (a tool call, its output, a message). */
  text: string;
  /** The conclusion drawn from it, when there is one: it replaces the raw text once pruned. */
  conclusion?: string;
}

export interface RelevantMemory {
  id: string;
  kind: MemoryKind;
  text: string;
  milestoneId?: string;
  score: number;
}

export interface ContextOptions {
  /** Share of the budget at which heavy pruning starts (DESIGN: 60–70%). */
  heavyPruningAt: number;
  maxMemories: number;
  heavyMaxMemories: number;
  /** Raw entries of the current milestone are cut to this many tokens (light pruning). */
  rawEntryTokens: number;
  heavyRawEntryTokens: number;
  /** Raw entries kept under heavy pruning: the most recent ones of the current milestone. */
  heavyRecentRaw: number;
}

export const DEFAULT_CONTEXT_OPTIONS: ContextOptions = {
  heavyPruningAt: 0.65,
  maxMemories: 5,
  heavyMaxMemories: 2,
  rawEntryTokens: 300,
  heavyRawEntryTokens: 60,
  heavyRecentRaw: 3,
};

export interface ContextInput {
  charter: Charter;
  /** The rendered STATE block. */
  state?: string;
  /** The rendered goal board. */
  goalBoard?: string;
  currentMilestoneId: string | null;
  memories?: readonly RelevantMemory[];
  /** Oldest first. */
  log?: readonly OperationLogEntry[];
  budgetTokens: number;
  options?: Partial<ContextOptions>;
}

export type ContextSectionName = 'charter' | 'state' | 'goal_board' | 'memories' | 'log';

export interface ContextSection {
  name: ContextSectionName;
  text: string;
  tokens: number;
}

export interface AssembledContext {
  sections: ContextSection[];
  text: string;
  tokens: number;
  pruning: 'light' | 'heavy';
  /** True when even the pruned context is larger than the budget (the charter and STATE alone may be). */
  overBudget: boolean;
  dropped: { logEntries: number; memories: number };
}

/** A log line after pruning; `pinned` lines (user feedback) are never dropped. */
interface LogLine {
  seq: number;
  text: string;
  pinned: boolean;
  raw: boolean;
}

function lightLog(log: readonly OperationLogEntry[], current: string | null, o: ContextOptions): LogLine[] {
  const lines: LogLine[] = [];
  for (const e of log) {
    if (e.kind === 'feedback') {
      lines.push({ seq: e.seq, text: `#${e.seq} user feedback: ${e.text}`, pinned: true, raw: false });
    } else if (e.conclusion) {
      lines.push({ seq: e.seq, text: `#${e.seq} conclusion: ${e.conclusion}`, pinned: false, raw: false });
    } else if (e.kind === 'milestone') {
      lines.push({ seq: e.seq, text: `#${e.seq} milestone: ${truncateToTokens(e.text, o.heavyRawEntryTokens)}`, pinned: false, raw: false });
    } else if (e.milestoneId === current) {
      lines.push({ seq: e.seq, text: `#${e.seq} ${e.kind}: ${truncateToTokens(e.text, o.rawEntryTokens)}`, pinned: false, raw: true });
    }
    // Raw entries of milestones behind the agent are dropped: their conclusions (if any) stay above.
  }
  return lines;
}

function heavyLog(lines: LogLine[], o: ContextOptions): LogLine[] {
  const raw = lines.filter((l) => l.raw);
  const keepRaw = new Set(raw.slice(-o.heavyRecentRaw));
  return lines
    .filter((l) => !l.raw || keepRaw.has(l))
    .map((l) => (l.raw ? { ...l, text: truncateToTokens(l.text, o.heavyRawEntryTokens) } : l));
}

function relevantMemories(memories: readonly RelevantMemory[], current: string | null, max: number): RelevantMemory[] {
  return memories
    .filter((m) => m.milestoneId === undefined || m.milestoneId === current)
    .slice()
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, max);
}

function section(name: ContextSectionName, text: string | undefined): ContextSection | undefined {
  if (text === undefined || text.trim().length === 0) return undefined;
  return { name, text, tokens: estimateTokens(text) };
}

function build(input: ContextInput, memories: RelevantMemory[], log: LogLine[]): ContextSection[] {
  const memoryText =
    memories.length === 0
      ? undefined
      : [`RELEVANT MEMORIES${input.currentMilestoneId ? ` (milestone ${input.currentMilestoneId})` : ''}`, ...memories.map((m) => `- [${m.kind}] ${m.text}`)].join('\n');
  const logText = log.length === 0 ? undefined : ['OPERATION LOG', ...log.map((l) => l.text)].join('\n');
  return [
    section('charter', renderCharter(input.charter)),
    section('state', input.state),
    section('goal_board', input.goalBoard),
    section('memories', memoryText),
    section('log', logText),
  ].filter((s): s is ContextSection => s !== undefined);
}

const SEPARATOR = '\n\n';
const total = (sections: ContextSection[]) =>
  sections.reduce((sum, s) => sum + s.tokens, 0) + Math.max(0, sections.length - 1) * estimateTokens(SEPARATOR);

export function assembleContext(input: ContextInput): AssembledContext {
  const o: ContextOptions = { ...DEFAULT_CONTEXT_OPTIONS, ...input.options };
  const allMemories = input.memories ?? [];
  const allLog = input.log ?? [];
  let memories = relevantMemories(allMemories, input.currentMilestoneId, o.maxMemories);
  let log = lightLog(allLog, input.currentMilestoneId, o);
  let sections = build(input, memories, log);
  const threshold = Math.floor(o.heavyPruningAt * input.budgetTokens);
  let pruning: AssembledContext['pruning'] = 'light';

  if (total(sections) >= threshold) {
    pruning = 'heavy';
    memories = memories.slice(0, o.heavyMaxMemories);
    log = heavyLog(log, o);
    sections = build(input, memories, log);
    // Still too big: the oldest unpinned log lines go first, then the weakest memories.
    while (total(sections) >= threshold) {
      const oldest = log.findIndex((l) => !l.pinned);
      if (oldest >= 0) log = [...log.slice(0, oldest), ...log.slice(oldest + 1)];
      else if (memories.length > 0) memories = memories.slice(0, -1);
      else break;
      sections = build(input, memories, log);
    }
  }

  const tokens = total(sections);
  const keptLogSeqs = new Set(log.map((l) => l.seq));
  return {
    sections,
    text: sections.map((s) => s.text).join(SEPARATOR),
    tokens,
    pruning,
    overBudget: tokens > input.budgetTokens,
    dropped: {
      logEntries: allLog.filter((e) => !keptLogSeqs.has(e.seq)).length,
      memories: allMemories.length - memories.length,
    },
  };
}
