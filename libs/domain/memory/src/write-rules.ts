/**
 * Write rules for long-term memory (DESIGN §5.5): keep conclusions, preferences, user corrections and key
 * data references; never temporary values or unverified guesses. A pure classifier that says why, so the
 * memory service can log (and tests can pin) every decision. English and Chinese cues.
 */
import type { MemoryKind } from './vector-store.port';

/** Where a candidate memory came from. */
export type MemorySource =
  | 'feedback' // a user correction (a `feedback` step)
  | 'milestone_evidence' // the evidence of a verified milestone
  | 'conclusion' // the agent stated a conclusion
  | 'message' // any other agent message
  | 'thought' // the agent's reasoning
  | 'observation' // raw tool output
  | 'variable'; // a value the agent set for itself

export interface MemoryCandidate {
  text: string;
  source: MemorySource;
  /** Whether a validator or the user confirmed it; undefined when nobody checked. */
  verified?: boolean;
}

export interface WriteDecision {
  write: boolean;
  kind?: MemoryKind;
  reasons: string[];
}

const MIN_CHARS = 8;

const TEMPORARY = [
  /\b(session|request|trace|correlation)[ _-]?id\b/i,
  /\b(access|auth|bearer|csrf|refresh)[ _-]?token\b/i,
  /\b(otp|one[- ]time (code|password)|nonce|cursor|page[ _-]?token|next[ _-]?page)\b/i,
  /\b(temp|tmp|scratch|for now|temporarily|loop (index|counter)|retry count|attempt \d+)\b/i,
  /[?&](X-Amz-Expires|X-Amz-Signature|token|sig|expires)=/i,
  /临时|暂时|验证码|会话/,
];

const HEDGES = [
  /\b(maybe|perhaps|probably|possibly|might|i (think|guess|suppose|assume)|not sure|unclear|could be|seems? to|likely|unverified|hypothes[ie]s)\b/i,
  /可能|也许|大概|猜|不确定|似乎|好像/,
];

const PREFERENCE = [
  /\b(i|we|the user) (prefer|like|want|would rather)\b/i,
  /\b(prefer(s|red)?|preference|always use|never use|please (use|avoid|write|reply))\b/i,
  /偏好|喜欢|更愿意|请用|请使用|不要用|总是用/,
];

const REFERENCE = [
  /\bhttps?:\/\/\S+/i,
  /\b(s3|gs|az|hdfs|file):\/\/\S+/i,
  /\bdoi:\s*10\.\d{4,}\/\S+/i,
  /(^|\s)(\/[\w.-]+){2,}\.\w{1,6}\b/, // a file path with an extension
  /\b(dataset|table|bucket|spreadsheet|document|ticket) (id |name )?[`'"]?[\w./-]{3,}/i,
];

const CONCLUSION = [
  /\b(in conclusion|therefore|we found|the answer is|confirmed|verified|concluded|result:|summary:)\b/i,
  /结论|总结|确认|因此|答案是/,
];

const matches = (patterns: readonly RegExp[], text: string) => patterns.some((p) => p.test(text));

export function classifyMemoryWrite(candidate: MemoryCandidate): WriteDecision {
  const text = candidate.text.trim();
  if (text.length < MIN_CHARS) return { write: false, reasons: [`too short to be worth keeping (${text.length} chars)`] };

  // A user correction is kept even when phrased tentatively: it is the user's word, not a guess.
  if (candidate.source === 'feedback') return { write: true, kind: 'correction', reasons: ['user correction'] };

  if (candidate.source === 'variable') return { write: false, reasons: ['temporary value: an agent variable'] };
  if (matches(TEMPORARY, text)) return { write: false, reasons: ['temporary value: session-, token- or attempt-scoped'] };

  const hedged = matches(HEDGES, text);
  if (candidate.verified === false) return { write: false, reasons: ['unverified guess: marked unverified'] };
  if (hedged && candidate.verified !== true) return { write: false, reasons: ['unverified guess: hedged wording and not verified'] };

  if (matches(PREFERENCE, text)) return { write: true, kind: 'preference', reasons: ['preference'] };
  if (matches(REFERENCE, text)) return { write: true, kind: 'reference', reasons: ['key data reference'] };

  if (candidate.source === 'milestone_evidence') {
    return { write: true, kind: 'conclusion', reasons: ['conclusion: evidence of a verified milestone'] };
  }
  if (candidate.source === 'conclusion' || (candidate.verified === true && matches(CONCLUSION, text))) {
    return { write: true, kind: 'conclusion', reasons: [candidate.verified ? 'verified conclusion' : 'conclusion stated by the agent'] };
  }
  if (candidate.source === 'observation') return { write: false, reasons: ['raw tool output: keep the conclusion drawn from it, not the output'] };
  if (candidate.source === 'thought') return { write: false, reasons: ['reasoning in progress, not a conclusion'] };
  return { write: false, reasons: ['not a conclusion, preference, user correction or data reference'] };
}
