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

/**
 * The two tools' words in fields (slot a the older, b the newer), not an array of objects: one object per
 * run instead of four (DESIGN §7 memory budget). `tools` reads and writes them as a list for the codec.
 */
export class EvidenceMemory {
  /** The run's current milestone, when a milestone event or a position named one. */
  milestone: string | null = null;
  /** Tools held: 0, 1 (slot b) or 2 (a older, b newer). */
  private held = 0;
  private aTool = 0;
  private aArgs = '';
  private aPrevious: string | null = null;
  private aError: string | null = null;
  private bTool = 0;
  private bArgs = '';
  private bPrevious: string | null = null;
  private bError: string | null = null;

  /** Oldest first (what the state codec reads and writes); a copy, set whole. */
  get tools(): ToolWords[] {
    const out: ToolWords[] = [];
    if (this.held === 2) out.push({ tool: this.aTool, args: this.aArgs, previousArgs: this.aPrevious, error: this.aError });
    if (this.held >= 1) out.push({ tool: this.bTool, args: this.bArgs, previousArgs: this.bPrevious, error: this.bError });
    return out;
  }

  set tools(list: ToolWords[]) {
    const kept = list.slice(-TOOLS);
    this.held = 0;
    this.clearA();
    this.bTool = 0;
    this.bArgs = '';
    this.bPrevious = null;
    this.bError = null;
    for (const t of kept) this.append(t.tool, t.args, t.previousArgs, t.error);
  }

  /** A call, with its args as the canonical JSON the engine already built for the argsHash. */
  onAction(tool: number, argsJson: string): void {
    const args = argsJson.length > RAW_CHARS ? argsJson.slice(0, RAW_CHARS) : argsJson;
    const slot = this.slotOf(tool);
    if (slot < 0) {
      this.append(tool, args, null, null);
      return;
    }
    // Most recently used last.
    if (slot === 0) this.swap();
    this.bPrevious = this.bArgs;
    this.bArgs = args;
  }

  onOutcome(tool: number, error: string | null): void {
    const slot = this.slotOf(tool);
    const cut = error === null ? null : error.slice(0, RAW_CHARS);
    if (slot === 0) this.aError = cut;
    else if (slot === 1) this.bError = cut;
  }

  /** The words for the newest call of a tool (empty when it was not seen since the state was restored). */
  describe(tool: number, options: { withError: boolean; withChange: boolean }): CallWords {
    const slot = this.slotOf(tool);
    if (slot < 0) return {};
    const args = slot === 0 ? this.aArgs : this.bArgs;
    const previousArgs = slot === 0 ? this.aPrevious : this.bPrevious;
    const error = slot === 0 ? this.aError : this.bError;
    const out: CallWords = { argsPreview: preview(args) };
    if (options.withChange && previousArgs !== null && previousArgs !== args) {
      out.previousArgsPreview = preview(previousArgs);
      const changed = changedFields(previousArgs, args);
      if (changed && changed.length > 0) out.changedFields = preview(changed.slice(0, FIELD_NAMES_SHOWN).join(', '), 80);
    }
    if (options.withError && error) out.errorPreview = preview(error);
    return out;
  }

  /** 0 = slot a, 1 = slot b, -1 = not held (the newer slot wins, as the first match of the oldest-first list did not: tools are distinct). */
  private slotOf(tool: number): number {
    if (this.held >= 1 && this.bTool === tool) return 1;
    if (this.held === 2 && this.aTool === tool) return 0;
    return -1;
  }

  /** Adds a tool as the newest; the oldest goes when both slots are held. */
  private append(tool: number, args: string, previousArgs: string | null, error: string | null): void {
    if (this.held >= 1) {
      this.aTool = this.bTool;
      this.aArgs = this.bArgs;
      this.aPrevious = this.bPrevious;
      this.aError = this.bError;
    }
    this.held = Math.min(TOOLS, this.held + 1);
    this.bTool = tool;
    this.bArgs = args;
    this.bPrevious = previousArgs;
    this.bError = error;
  }

  private swap(): void {
    const tool = this.aTool;
    const args = this.aArgs;
    const previous = this.aPrevious;
    const error = this.aError;
    this.aTool = this.bTool;
    this.aArgs = this.bArgs;
    this.aPrevious = this.bPrevious;
    this.aError = this.bError;
    this.bTool = tool;
    this.bArgs = args;
    this.bPrevious = previous;
    this.bError = error;
  }

  private clearA(): void {
    this.aTool = 0;
    this.aArgs = '';
    this.aPrevious = null;
    this.aError = null;
  }
}
