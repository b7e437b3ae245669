/**
 * `content_repetition` (PROJECT-RULES.md P4): one assistant message that repeats a chunk (a sentence or a
 * line) over and over. Fenced code blocks, table rows, list items, headings and indented code are left out:
 * repetition there is structure, not a loop. Stateless: each message is judged alone.
 */
import type { PolicySettings } from '@wayfinder/contracts';
import { preview } from '../evidence/preview';
import type { DeviationDraft } from '../types';

type ContentRepetitionSettings = NonNullable<PolicySettings['contentRepetition']>;

const FENCED = /(```|~~~)[\s\S]*?(?:\1|$)/g;
const STRUCTURE_LINE = /^\s*(\||[-*+•]\s|\d{1,3}[.)]\s|#{1,6}\s|>|\t| {4})/;
const CHUNK_END = /(?<=[.!?])\s+|\n+/;
const MAX_CHARS = 65_536;

export interface RepeatedChunk {
  chunk: string;
  count: number;
}

/** The most repeated prose chunk of a text (null when none repeats). */
export function mostRepeatedChunk(text: string, minChunkChars: number): RepeatedChunk | null {
  if (typeof text !== 'string' || text.length < minChunkChars * 2) return null;
  const prose = text
    .slice(0, MAX_CHARS)
    .replace(FENCED, '\n')
    .split('\n')
    .filter((line) => !STRUCTURE_LINE.test(line))
    .join('\n');
  const counts = new Map<string, number>();
  let best: RepeatedChunk | null = null;
  for (const raw of prose.split(CHUNK_END)) {
    const chunk = raw.replace(/\s+/g, ' ').trim().toLowerCase();
    // A chunk must say something: separators (────, ====) and bare numbers are layout.
    if (chunk.length < minChunkChars || !/[a-z\p{L}]{3}/u.test(chunk)) continue;
    const n = (counts.get(chunk) ?? 0) + 1;
    counts.set(chunk, n);
    if (n >= 2 && (!best || n > best.count)) best = { chunk: raw.replace(/\s+/g, ' ').trim(), count: n };
  }
  return best;
}

export function detectContentRepetition(text: string, seq: number, settings: ContentRepetitionSettings): DeviationDraft | null {
  const repeated = mostRepeatedChunk(text, settings.minChunkChars);
  if (!repeated || repeated.count < settings.warning) return null;
  const critical = repeated.count >= settings.critical;
  return {
    detector: 'content_repetition',
    level: critical ? 'critical' : 'warning',
    count: repeated.count,
    atSeq: 0,
    loopStartSeq: seq,
    evidence: { repeatedPreview: preview(repeated.chunk), repeats: repeated.count },
    message: `One message repeats the same passage ${repeated.count} times; the output is looping instead of moving on.`,
  };
}
