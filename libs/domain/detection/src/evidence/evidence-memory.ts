/**
 * What a run's recent calls looked like, in words, so deviations can name things (DESIGN §5.3 "Evidence
 * that names things"): per tool (the newest two), its latest and previous args and its latest error, as
 * short raw strings; previews (redacted, bounded) and the top-level fields that changed are computed only
 * when a deviation asks. Two tools: a call and the other side of a ping-pong. Persisted with the run (state codec v3), so a restored agent names the same
 * things; it never changes a decision.
 */
import { preview } from './preview';

const TOOLS = 2;
/** Raw characters kept per args or error: enough for a preview, little memory per run. */
const RAW_CHARS = 200;
const FIELD_NAMES_SHOWN = 4;

export interface ToolWords {
  tool: number;
  args: string;
  previousArgs: string | null;
  error: string | null;
}

export interface CallWords {
  argsPreview?: string;
  previousArgsPreview?: string;
  changedFields?: string;
  errorPreview?: string;
}

/** Top-level fields whose values differ between two args documents (null when either was cut or is no object). */
function changedFields(previous: string, current: string): string[] | null {
  if (previous.length >= RAW_CHARS || current.length >= RAW_CHARS) return null;
  try {
    const a = JSON.parse(previous) as unknown;
    const b = JSON.parse(current) as unknown;
    if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) || Array.isArray(b)) return null;
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
    return [...keys].filter((k) => JSON.stringify(ra[k]) !== JSON.stringify(rb[k]));
  } catch {
    return null;
  }
}

export class EvidenceMemory {
  /** Oldest first; read and written as is by the state codec. Replaced, never pushed to: exact length. */
  tools: ToolWords[] = [];
  /** The run's current milestone, when a milestone event or a position named one. */
  milestone: string | null = null;

  /** A call, with its args as the canonical JSON the engine already built for the argsHash. */
  onAction(tool: number, argsJson: string): void {
    const args = argsJson.length > RAW_CHARS ? argsJson.slice(0, RAW_CHARS) : argsJson;
    const index = this.tools.findIndex((t) => t.tool === tool);
    if (index < 0) {
      this.tools = this.tools.slice(this.tools.length >= TOOLS ? 1 : 0).concat({ tool, args, previousArgs: null, error: null });
      return;
    }
    const entry = this.tools[index];
    // Most recently used last.
    if (index !== this.tools.length - 1) this.tools = this.tools.filter((t) => t !== entry).concat(entry);
    entry.previousArgs = entry.args;
    entry.args = args;
  }

  onOutcome(tool: number, error: string | null): void {
    const entry = this.tools.find((t) => t.tool === tool);
    if (entry) entry.error = error === null ? null : error.slice(0, RAW_CHARS);
  }

  /** The words for the newest call of a tool (empty when it was not seen since the state was restored). */
  describe(tool: number, options: { withError: boolean; withChange: boolean }): CallWords {
    const entry = this.tools.find((t) => t.tool === tool);
    if (!entry) return {};
    const out: CallWords = { argsPreview: preview(entry.args) };
    if (options.withChange && entry.previousArgs !== null && entry.previousArgs !== entry.args) {
      out.previousArgsPreview = preview(entry.previousArgs);
      const changed = changedFields(entry.previousArgs, entry.args);
      if (changed && changed.length > 0) out.changedFields = preview(changed.slice(0, FIELD_NAMES_SHOWN).join(', '), 80);
    }
    if (options.withError && entry.error) out.errorPreview = preview(entry.error);
    return out;
  }
}
