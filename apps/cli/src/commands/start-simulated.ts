/**
 * `wayfinder start --simulate N`: the embedded default with N simulated agents feeding it and the
 * gateway (agents' API, query API and dashboard) on 127.0.0.1:PORT (local mode), so a new user sees a living fleet in one command. The fleet
 * runs until every agent finished or was frozen; the dashboard stays up until SIGINT/SIGTERM.
 */
import { loadConfig } from '@wayfinder/config';
import { SimulatedFleet } from '@wayfinder/testing';
import { ArrivingFleet } from '../demo/arriving-fleet';
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

/** How `--fleet` paces its arrivals: a round every 500 ms, a new agent every 3 s while fewer than 12 work. */
const LIVE = { roundMs: 500, initial: 6, everyRounds: 6, maxAlive: 12 };

/**
 * `wayfinder start --fleet` (what `npm start` runs): the embedded default with the gateway and dashboard
 * on 127.0.0.1:PORT and a simulated fleet whose agents keep arriving (ArrivingFleet) until SIGINT/SIGTERM;
 * it prints the dashboard's address and a curl line that connects an agent of one's own.
 */
export async function startLiveFleet(port: number, log: (line: string) => void): Promise<void> {
  const fleet = new ArrivingFleet({ seed: Date.now() % 100_000, initial: LIVE.initial, everyRounds: LIVE.everyRounds, maxAlive: LIVE.maxAlive });
  const stop = (): void => fleet.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const run = await runFleetThroughPipeline(fleet, {
    config: loadConfig({}, { port: String(port), host: '127.0.0.1' }),
    rounds: Number.MAX_SAFE_INTEGER,
    roundMs: LIVE.roundMs,
    startMs: Date.now(),
    onStarted: async (running) => {
      if (!running.gateway) throw new Error('the embedded pipeline started without its gateway');
      const url = running.gateway.url;
      log(`wayfinder: running embedded, with a simulated fleet (a new agent every ${(LIVE.everyRounds * LIVE.roundMs) / 1000} s, at most ${LIVE.maxAlive} at work). Ctrl-C stops.`);
      log(`  open the dashboard:  ${url}/`);
      log(`  connect an agent:    curl -X POST ${url}/v1/steps -H 'Content-Type: application/json' -d '{"agentId":"my-agent","taskId":"my-task","seq":0,"kind":"action","action":{"tool":"search","args":{"q":"hello"}}}'`);
    },
  });
  log(`wayfinder: stopped after ${run.rounds} rounds, ${fleet.arrivals} agents, ${run.steps} steps, ${run.corrections.length} corrections`);
}
