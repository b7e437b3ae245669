/**
 * `wayfinder start --simulate N`: the embedded default with N simulated agents feeding it and the
 * gateway (agents' API, query API and dashboard) on 127.0.0.1:PORT (local mode), so a new user sees a living fleet in one command. The fleet
 * runs until every agent finished or was frozen; the dashboard stays up until SIGINT/SIGTERM.
 */
import { loadConfig } from '@wayfinder/config';
import { SimulatedFleet } from '@wayfinder/testing';
import { runFleetThroughPipeline } from '../demo/fleet-pipeline-run';

export async function startSimulated(agents: number, port: number, log: (line: string) => void): Promise<void> {
  // Agents start within the first 6 rounds (3 s): the fleet page is full at once, and the agents are
  // still at different phases of their tasks.
  const fleet = new SimulatedFleet({ seed: Date.now() % 100_000, agents, stagger: Math.min(6, agents), recovery: 'content' });
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const run = await runFleetThroughPipeline(fleet, {
    // Loopback and no keys: local mode, the one local operator sees every tenant.
    config: loadConfig({}, { port: String(port), host: '127.0.0.1' }),
    rounds: 100_000,
    roundMs: 500,
    startMs: Date.now(),
    onStarted: async (running) => {
      if (!running.gateway) throw new Error('the embedded pipeline started without its gateway');
      log(`wayfinder: ${agents} simulated agents in the embedded pipeline; dashboard at ${running.gateway.url}/ (Ctrl-C stops)`);
    },
    beforeStop: async () => {
      log('wayfinder: every simulated agent finished or was frozen; the dashboard stays up (Ctrl-C stops)');
      await stopped;
    },
  });
  log(`wayfinder: stopped after ${run.rounds} rounds, ${run.steps} steps, ${run.corrections.length} corrections`);
}
