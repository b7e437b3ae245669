/**
 * The work simulated agents do: a few task templates, each a goal with explicit milestones (marker
 * validators, so the agent's own done signal is what completes them) and, per milestone, the tools a
 * healthy agent calls. Healthy calls vary their arguments and always bring something new back, the way
 * legitimate work does: a batch over distinct files, searches whose results differ, a poll whose output
 * changes until the job finishes.
 */
import type { JsonValue } from '@wayfinder/contracts';
import type { Prng } from './prng';

export interface CallSpec {
  tool: string;
  args: Record<string, JsonValue>;
  /** The observation a healthy call gets back. */
  ok: boolean;
  content: JsonValue;
}

export interface MilestoneTemplate {
  id: string;
  description: string;
  /** Builds the i-th healthy call of this milestone. */
  call(rng: Prng, i: number, subject: string): CallSpec;
}

export interface TaskTemplate {
  key: string;
  /** A quantitative anchor on the items one milestone's healthy calls gather (one per call). */
  anchor?: { milestone: string; target: number; unit: string; text: string; item: string };
  goal(subject: string): string;
  milestones: readonly MilestoneTemplate[];
  subjects: readonly string[];
}

const WORDS = [
  'ledger', 'harbor', 'quartz', 'meadow', 'signal', 'copper', 'lantern', 'orbit', 'velvet', 'cinder', 'falcon', 'glacier',
  'pixel', 'summit', 'timber', 'vector', 'willow', 'zephyr', 'beacon', 'canyon', 'delta', 'ember', 'fjord', 'garnet',
  'helix', 'island', 'jasper', 'kernel', 'lumen', 'marble', 'nectar', 'onyx', 'prism', 'quiver', 'raven', 'saffron',
  'tundra', 'umber', 'vortex', 'walnut', 'xenon', 'yarrow', 'zinc', 'amber', 'basalt', 'cobalt', 'dune', 'echo',
];

export function words(rng: Prng, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(rng.pick(WORDS));
  return out.join(' ');
}

/** A result that is new every time: random facts, figures and a unique reference. */
function freshResult(rng: Prng, what: string): JsonValue {
  return {
    summary: `${what}: ${words(rng, 8)}`,
    figures: [rng.int(10, 9999), rng.int(10, 9999), rng.int(10, 9999)],
    ref: `${rng.token(4)}-${rng.token(6)}`,
  };
}

const research: TaskTemplate = {
  key: 'research',
  anchor: { milestone: 'find-competitors', target: 3, unit: 'competitors', text: 'at least 3 competitors', item: 'competitor' },
  subjects: ['CRM software', 'payroll services', 'cloud backup tools', 'e-signature apps'],
  goal: (s) => `Research the main competitors in ${s} -> collect their pricing -> compare them in a table -> write a summary report`,
  milestones: [
    {
      id: 'find-competitors',
      description: 'Find the main competitors and their websites',
      call: (rng, i, s): CallSpec =>
        i % 2 === 0
          ? { tool: 'web_search', args: { query: `${s} competitors ${words(rng, 2)}` }, ok: true, content: freshResult(rng, 'results') }
          : { tool: 'open_url', args: { url: `https://${rng.token(7)}.example.com/` }, ok: true, content: freshResult(rng, 'page') },
    },
    {
      id: 'collect-pricing',
      description: 'Collect the pricing plans of each competitor',
      call: (rng, i) => ({ tool: 'extract_table', args: { url: `https://${rng.token(7)}.example.com/pricing`, table: i }, ok: true, content: freshResult(rng, 'plans') }),
    },
    {
      id: 'compare',
      description: 'Compare the plans side by side in a table',
      call: (rng, i) => ({ tool: 'python', args: { code: `df${i} = compare(plans, by='${rng.pick(WORDS)}')` }, ok: true, content: freshResult(rng, 'table') }),
    },
    {
      id: 'report',
      description: 'Write the summary report',
      call: (rng, i) => ({ tool: 'write_file', args: { path: `report/section-${i + 1}.md`, text: words(rng, 12) }, ok: true, content: { written: rng.int(200, 4000), path: `report/section-${i + 1}.md` } }),
    },
  ],
};

const bugfix: TaskTemplate = {
  key: 'bugfix',
  anchor: { milestone: 'reproduce', target: 3, unit: 'files', text: 'at least 3 files', item: 'file' },
  subjects: ['the checkout service', 'the login flow', 'the invoice exporter', 'the search API'],
  goal: (s) => `Fix the failing integration test of ${s}: reproduce the failure, then find the cause, then patch it, then run the suite`,
  milestones: [
    {
      id: 'reproduce',
      description: 'Reproduce the failing test locally',
      call: (rng, i) => ({ tool: 'read_file', args: { path: `src/${rng.token(5)}/${rng.pick(WORDS)}-${i}.ts` }, ok: true, content: freshResult(rng, 'source') }),
    },
    {
      id: 'find-cause',
      description: 'Find the root cause in the code',
      call: (rng) => ({ tool: 'grep', args: { pattern: `${rng.pick(WORDS)}${rng.token(3)}`, dir: 'src' }, ok: true, content: freshResult(rng, 'matches') }),
    },
    {
      id: 'patch',
      description: 'Patch the code and add a regression test',
      call: (rng, i) => ({ tool: 'edit_file', args: { path: `src/${rng.token(5)}.ts`, patch: `@@ ${i} @@ ${words(rng, 6)}` }, ok: true, content: { applied: true, hunk: rng.token(8) } }),
    },
    {
      id: 'verify',
      description: 'Run the whole suite and confirm it passes',
      // A CI job polled until it finishes: the same call, an output that changes each time.
      call: (rng, i): CallSpec =>
        i === 0
          ? { tool: 'start_ci', args: { branch: `fix-${rng.token(6)}` }, ok: true, content: { job: 'queued', id: rng.token(8) } }
          : { tool: 'ci_status', args: { job: 'current' }, ok: true, content: { state: i >= 3 ? 'passed' : 'running', done: i * 30 + rng.int(0, 9), log: words(rng, 5) } },
    },
  ],
};

const dataReport: TaskTemplate = {
  key: 'data-report',
  anchor: { milestone: 'load', target: 3, unit: 'datasets', text: 'at least 3 datasets', item: 'dataset' },
  subjects: ['quarterly sales', 'support tickets', 'web traffic', 'churn'],
  goal: (s) => `Build a report on ${s}: load the data -> clean it -> compute the key metrics -> draw the charts -> write the findings`,
  milestones: [
    {
      id: 'load',
      description: 'Load the raw data files',
      call: (rng, i) => ({ tool: 'read_file', args: { path: `data/part-${String(i + 1).padStart(3, '0')}-${rng.token(4)}.csv` }, ok: true, content: freshResult(rng, 'rows') }),
    },
    {
      id: 'clean',
      description: 'Clean and deduplicate the rows',
      call: (rng, i) => ({ tool: 'python', args: { code: `rows_${i} = clean(rows, drop='${rng.pick(WORDS)}')` }, ok: true, content: freshResult(rng, 'clean') }),
    },
    {
      id: 'metrics',
      description: 'Compute the key metrics',
      call: (rng) => ({ tool: 'sql', args: { query: `select ${rng.pick(WORDS)}, sum(${rng.pick(WORDS)}) from t group by 1` }, ok: true, content: freshResult(rng, 'metrics') }),
    },
    {
      id: 'charts',
      description: 'Draw the charts',
      call: (rng, i) => ({ tool: 'plot', args: { kind: rng.pick(['bar', 'line', 'area']), series: `${rng.pick(WORDS)}-${i}` }, ok: true, content: { image: `chart-${rng.token(6)}.png` } }),
    },
    {
      id: 'findings',
      description: 'Write the findings for the team',
      call: (rng, i) => ({ tool: 'write_file', args: { path: `findings-${i}.md`, text: words(rng, 12) }, ok: true, content: { written: rng.int(200, 4000) } }),
    },
  ],
};

export const TASK_TEMPLATES: readonly TaskTemplate[] = [research, bugfix, dataReport];
