/**
 * One state document per agent (issue #28): everything the per-agent pipeline keeps for an agent — its
 * localizers on its latest tasks, its detectors' state, its correction ladder — in one versioned binary
 * document, written back once per batch. Layout: "WN", codec version, section count, then per section a
 * u32 (LE) length and its bytes; 0xFFFFFFFF marks a section the agent has no state for. A document of
 * another version, or cut short, throws before anything is restored.
 */
export const NAVIGATION_STATE_VERSION = 1;

export interface NavigationStateParts {
  /** The localizers (navigator.ts: JSON of `LocalizationDocument`). */
  localization?: Uint8Array;
  /** The detection engine's own binary document (@wayfinder/detection state/codec.ts). */
  detection?: Uint8Array;
  /** The correction ladder's document (@wayfinder/correction). */
  correction?: Uint8Array;
}

/** The localization section: each task's localizer snapshot (LocalizerSnapshot), with the run and last seq navigated. */
export const LOCALIZATION_VERSION = 1;

export interface LocalizationDocument {
  v: number;
  tasks: Array<[string, { snapshot?: unknown; version: number; runId: string | null; lastSeq: number | null }]>;
}

const SECTIONS = ['localization', 'detection', 'correction'] as const;
const ABSENT = 0xffffffff;
const HEADER = 4;

export function encodeNavigationState(parts: NavigationStateParts): Uint8Array {
  let size = HEADER;
  for (const name of SECTIONS) size += 4 + (parts[name]?.byteLength ?? 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out[0] = 0x57; // W
  out[1] = 0x4e; // N
  out[2] = NAVIGATION_STATE_VERSION;
  out[3] = SECTIONS.length;
  let at = HEADER;
  for (const name of SECTIONS) {
    const bytes = parts[name];
    view.setUint32(at, bytes ? bytes.byteLength : ABSENT, true);
    at += 4;
    if (bytes) {
      out.set(bytes, at);
      at += bytes.byteLength;
    }
  }
  return out;
}

export function decodeNavigationState(bytes: Uint8Array): NavigationStateParts {
  if (bytes.byteLength < HEADER || bytes[0] !== 0x57 || bytes[1] !== 0x4e) throw new Error('navigation state: not a navigation state document');
  if (bytes[2] !== NAVIGATION_STATE_VERSION) throw new Error(`navigation state: unsupported document version ${bytes[2]}`);
  if (bytes[3] !== SECTIONS.length) throw new Error(`navigation state: ${bytes[3]} sections, expected ${SECTIONS.length}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: NavigationStateParts = {};
  let at = HEADER;
  for (const name of SECTIONS) {
    if (at + 4 > bytes.byteLength) throw new Error('navigation state: document cut short');
    const length = view.getUint32(at, true);
    at += 4;
    if (length === ABSENT) continue;
    if (at + length > bytes.byteLength) throw new Error('navigation state: document cut short');
    parts[name] = bytes.subarray(at, at + length);
    at += length;
  }
  return parts;
}
