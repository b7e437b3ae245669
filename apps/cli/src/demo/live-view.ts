/**
 * The demo's live terminal view: agents by state, deviations and corrections per second, self-heal
 * rate. On a TTY the block is redrawn in place a few times a second; otherwise (CI, a pipe) one plain
 * line is printed every few seconds, so logs stay readable.
 */
import type { AgentState } from '@wayfinder/testing';
import type { RoundReport } from './fleet-pipeline-run';

export interface LiveViewOptions {
  out: NodeJS.WritableStream;
  tty: boolean;
  title: string;
  totalRounds: number;
  /** Wall clock, ms (tests pin it). */
  now?: () => number;
}

const TTY_REFRESH_MS = 250;
const PLAIN_REFRESH_MS = 2_000;

export class LiveView {
  private readonly now: () => number;
  private readonly started: number;
  private lastDraw = -Infinity;
  private drawnLines = 0;
  private window: Array<{ at: number; deviations: number; corrections: number; steps: number }> = [];
  private deviations = 0;
  private corrections = 0;

  constructor(private readonly options: LiveViewOptions) {
    this.now = options.now ?? Date.now;
    this.started = this.now();
  }

  /** `failures`: injected failures started so far and how many of those agents recovered without a human. */
  update(report: RoundReport, states: Record<AgentState, number>, failures: { started: number; recovered: number }, force = false): void {
    const at = this.now();
    this.deviations += report.deviations;
    this.corrections += report.corrections;
    this.window.push({ at, deviations: report.deviations, corrections: report.corrections, steps: report.steps });
    this.window = this.window.filter((w) => at - w.at <= 2_000);
    const every = this.options.tty ? TTY_REFRESH_MS : PLAIN_REFRESH_MS;
    if (!force && at - this.lastDraw < every) return;
    this.lastDraw = at;
    const span = Math.max(0.25, (at - (this.window[0]?.at ?? at)) / 1000 || 0.25);
    const rate = (k: 'deviations' | 'corrections' | 'steps') => this.window.reduce((s, w) => s + w[k], 0) / span;
    const { selfHeals, selfHealFailures } = report.selfHeal;
    const judged = selfHeals + selfHealFailures;
    const heal = judged > 0 ? `${(selfHeals / judged).toFixed(2)} (${selfHeals}/${judged})` : 'n/a';
    const elapsed = ((at - this.started) / 1000).toFixed(1);
    const agents = `working ${states.working + states.waiting}  looping ${states.looping}  recovering ${states.recovering}  done ${states.done}  frozen ${states.frozen}`;
    if (this.options.tty) {
      const lines = [
        `${this.options.title}   t=${elapsed}s   round ${report.round + 1}/${this.options.totalRounds}`,
        `agents      ${agents}`,
        `per second  steps ${rate('steps').toFixed(0)}   deviations ${rate('deviations').toFixed(1)}   corrections ${rate('corrections').toFixed(1)}`,
        `totals      deviations ${this.deviations}   corrections ${this.corrections}   self-heal ${heal}   recovered agents ${failures.recovered}/${failures.started}`,
      ];
      const up = this.drawnLines > 0 ? `\x1b[${this.drawnLines}A` : '';
      this.options.out.write(up + lines.map((l) => `\x1b[2K${l}`).join('\n') + '\n');
      this.drawnLines = lines.length;
    } else {
      this.options.out.write(
        `[${elapsed}s] round ${report.round + 1}/${this.options.totalRounds} | ${agents} | deviations/s ${rate('deviations').toFixed(1)} corrections/s ${rate('corrections').toFixed(1)} | self-heal ${heal} | recovered agents ${failures.recovered}/${failures.started}\n`,
      );
    }
  }
}
