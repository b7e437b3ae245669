/** `wayfinder demo`: name, summary and usage, loaded for `--help` without the command's implementation. */
import type { CommandHelp } from '../command';

export const demoHelp: CommandHelp = {
  name: 'demo',
  summary: 'run a simulated fleet through the embedded pipeline and write an HTML report',
  usage: `usage: wayfinder demo [--agents N] [--duration SECONDS] [--seed K] [--report FILE.html] [--metrics-file FILE.json]

Runs a simulated fleet of agents over three tenants (balanced, strict and lenient policies) through the
whole pipeline in this process — task parsing, localization, detection, correction — with a live view,
then writes an HTML report. Some agents fall into the failures of DESIGN §1 (loops, dead polls,
ping-pong, rephrased searches, monologues, stagnation, drift); their chance to recover depends on what a
correction says (libs/testing/src/fleet/recovery-model.ts). The report shows persistence curves.
  --agents N         agents in the fleet (default 300)
  --duration S       seconds to run (default 20); sets the number of rounds, so a slow machine takes longer
                     but does the same work; the run ends earlier when every agent is done or frozen
  --seed K           the same seed gives the same fleet and the same summary numbers (default 1)
  --report FILE      where to write the HTML report (default wayfinder-report.html)
  --metrics-file F   also write the run's metrics as JSON (OpenTelemetry metrics of the services)`,
};
