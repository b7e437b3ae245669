/**
 * `wayfinder start --simulate N`: the embedded default with N simulated agents feeding it and the
 * dashboard served on loopback (local mode), so a new user sees a living fleet in one command. The fleet
 * runs until every agent finished or was frozen; the dashboard stays up until SIGINT/SIGTERM.
 */
import { serveOperationsLocally } from '@wayfinder/service-operations';
import { SimulatedFleet } from '@wayfinder/testing';
import { runFleetThroughPipeline } from '../demo/fleet-pipeline-run';

export async function startSimulated(agents: number, port: number, log: (line: string) => void): Promise<void> {
  const fleet = new SimulatedFleet({ seed: Date.now() % 100_000, agents, stagger: Math.min(60, agents), recovery: 'content' });
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let close: (() => Promise<void>) | undefined;
  const run = await runFleetThroughPipeline(fleet, {
    rounds: 100_000,
    roundMs: 500,
    startMs: Date.now(),
    onStarted: async (running) => {
      const served = await serveOperationsLocally({ store: running.history, bus: running.bus, policies: running.policyBook }, port);
      close = () => served.app.close();
      log(`wayfinder: ${agents} simulated agents in the embedded pipeline; dashboard at ${served.url}/ (Ctrl-C stops)`);
    },
    beforeStop: async () => {
      log('wayfinder: every simulated agent finished or was frozen; the dashboard stays up (Ctrl-C stops)');
      await stopped;
    },
  });
  await close?.();
  log(`wayfinder: stopped after ${run.rounds} rounds, ${run.steps} steps, ${run.corrections.length} corrections`);
}
