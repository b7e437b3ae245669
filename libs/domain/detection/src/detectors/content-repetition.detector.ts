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

/** The text without fenced code, table rows, list items, headings, quotes and indented code. */
function proseOf(text: string): string {
  return text
    .slice(0, MAX_CHARS)
    .replace(FENCED, '\n')
    .split('\n')
    .filter((line) => !STRUCTURE_LINE.test(line))
    .join('\n');
}

/** The most repeated prose chunk of a text (null when none repeats). */
export function mostRepeatedChunk(text: string, minChunkChars: number): RepeatedChunk | null {
  if (typeof text !== 'string' || text.length < minChunkChars * 2) return null;
  const prose = proseOf(text);
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

/** Longest phrase, in words, that the back-to-back rule looks for. */
const MAX_PHRASE_WORDS = 8;
const MAX_WORDS = 8192;

/**
 * The short phrase (fewer than `minChunkChars` characters, 1 to 8 words, with three letters in a row)
 * repeated most often back to back in the prose of a text: "let me check. let me check. let me check",
 * "sorry, sorry, sorry". Words are compared lower-cased without the punctuation around them. Linear in
 * the words (8 periods).
 */
export function mostRepeatedPhrase(text: string, minChunkChars: number): RepeatedChunk | null {
  if (typeof text !== 'string' || text.length < 8) return null;
  const raw = proseOf(text).split(/\s+/).filter((w) => w !== '').slice(0, MAX_WORDS);
  const words = raw.map((w) => w.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''));
  let best: RepeatedChunk | null = null;
  for (let p = 1; p <= MAX_PHRASE_WORDS; p++) {
    let matched = 0;
    for (let i = 0; i + p <= words.length; i++) {
      const same = i + p < words.length && words[i] !== '' && words[i] === words[i + p];
      if (same) {
        matched++;
        continue;
      }
      const count = Math.floor((matched + p) / p);
      if (count >= 2 && (!best || count > best.count)) {
        const start = i - matched;
        const unit = words.slice(start, start + p);
        const phrase = unit.join(' ');
        // A phrase must say something (three letters in a row) and be short: long ones are chunks (P4).
        if (phrase.length < minChunkChars && /\p{L}{3}/u.test(phrase)) best = { chunk: raw.slice(start, start + p).join(' '), count };
      }
      matched = 0;
    }
  }
  return best;
}

export function detectContentRepetition(text: string, seq: number, settings: ContentRepetitionSettings): DeviationDraft | null {
  const repeated = mostRepeatedChunk(text, settings.minChunkChars);
  if (repeated && repeated.count >= settings.warning) {
    return draftOf(repeated, seq, repeated.count >= settings.critical, false, `One message repeats the same passage ${repeated.count} times; the output is looping instead of moving on.`);
  }
  // P4's short phrases: one phrase repeated back to back, over and over (`phraseWarning`).
  const warning = settings.phraseWarning;
  if (warning === undefined) return null;
  const phrase = mostRepeatedPhrase(text, settings.minChunkChars);
  if (!phrase || phrase.count < warning) return null;
  const critical = phrase.count >= (settings.phraseCritical ?? Number.POSITIVE_INFINITY);
  return draftOf(phrase, seq, critical, true, `One message repeats the phrase "${preview(phrase.chunk)}" ${phrase.count} times in a row; the output is stuck on it.`);
}

function draftOf(repeated: RepeatedChunk, seq: number, critical: boolean, phrase: boolean, message: string): DeviationDraft {
  return {
    detector: 'content_repetition',
    level: critical ? 'critical' : 'warning',
    count: repeated.count,
    atSeq: 0,
    loopStartSeq: seq,
    evidence: { repeatedPreview: preview(repeated.chunk), repeats: repeated.count, ...(phrase && { phrase: true }) },
    message,
  };
}
