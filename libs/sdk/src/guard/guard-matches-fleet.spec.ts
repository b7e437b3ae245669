/**
 * Acceptance (issues 11 and 28): the in-process guard and the fleet — the services of `wayfinder start`
 * (startServices, embedded, the one-pass navigator on the in-process bus) — give identical corrections for
 * the same steps: same ids, actions, severities, seqs and texts (only `ts` differs: the fleet stamps
 * wall-clock time). The inputs: the CLI's replay fixture (tasks, one with a cycle that makes no map, and a
 * search loop after a milestone), a 25-call identical loop of one tenant beside a healthy agent of
 * another, every conformance case (no task posted: navigated at once, without a map), and a generated fleet.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { StepEvent as StepEventSchema, TaskSpec as TaskSpecSchema, type Correction, type StepEvent, type TaskSpec } from '@wayfinder/contracts';
import { parseTask } from '@wayfinder/cognitive-map';
import { InProcessBus, SettlingBus } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the acceptance test runs the fleet itself, to compare the guard with it
import { startServices } from '@wayfinder/service-runtime';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the same step files every runtime is checked on
import { conformanceSteps, demoFleetSteps, generatedFleetSteps } from '@wayfinder/testing';
import { GuardTransport } from './guard-transport';

const CLI_FIXTURES = path.resolve(__dirname, '../../../../apps/cli/src/commands/fixtures');
const FILES = [path.join(CLI_FIXTURES, 'replay-task/loop-after-milestone.jsonl'), path.join(__dirname, 'fixtures/identical-loop-and-healthy-agent.jsonl')];

/** The valid steps and the tasks that make a map, as `wayfinder replay` keeps them (the fixtures hold bad lines on purpose). */
function readStepFile(file: string): { tasks: TaskSpec[]; steps: StepEvent[] } {
  const tasks: TaskSpec[] = [];
  const steps: StepEvent[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue;
    }
    const task = TaskSpecSchema.safeParse(raw);
    if (task.success && parseTask(task.data).ok) tasks.push(task.data);
    const step = StepEventSchema.safeParse(raw);
    if (step.success) steps.push(step.data);
  }
  return { tasks, steps };
}

const withoutTs = (c: Correction) => ({ ...c, ts: undefined });

async function throughGuard(tasks: TaskSpec[], steps: StepEvent[]): Promise<Correction[]> {
  const guard = new GuardTransport();
  for (const task of tasks) guard.addTask(task);
  const corrections: Correction[] = [];
  const agents = new Set(steps.map((s) => `${s.tenantId}\u0000${s.agentId}`));
  const subscriptions = [...agents].map((key) => {
    const [tenantId, agentId] = key.split('\u0000');
    return guard.subscribe({ agentId, tenantId, deliver: async ({ correction }) => void corrections.push(correction) });
  });
  for (const step of steps) await guard.publish([step]);
  for (const s of subscriptions) await s.close();
  return corrections;
}

async function throughFleet(tasks: TaskSpec[], steps: StepEvent[]): Promise<Correction[]> {
  const bus = new SettlingBus(new InProcessBus());
  const corrections: Correction[] = [];
  bus.subscribe('wayfinder.corrections.v1', async (batch) => void corrections.push(...batch.map((d) => d.payload)), { groupId: 'guard-vs-fleet' });
  const running = await startServices(loadConfig({}), { bus, logger: false });
  try {
    await bus.publish('wayfinder.tasks.v1', tasks);
    await bus.settled();
    // One step at a time, as an agent makes them: each correction is made before the next step.
    for (const step of steps) {
      await bus.publish('wayfinder.steps.v1', [step]);
      await bus.settled();
    }
  } finally {
    await running.stop();
  }
  return corrections;
}

describe('the SDK guard and the fleet', () => {
  it.each(FILES.map((f) => [path.basename(f), f]))('give identical corrections for %s', async (_name, file) => {
    const { tasks, steps } = readStepFile(file);
    const guard = await throughGuard(tasks, steps);
    const fleet = await throughFleet(tasks, steps);
    expect(guard.length).toBeGreaterThan(0);
    expect(guard.map(withoutTs)).toEqual(fleet.map(withoutTs));
  });

  it.each([
    ['the conformance cases', () => conformanceSteps()],
    ['a generated fleet of loops, drifts and healthy agents', () => generatedFleetSteps()],
    ["the demo fleet's steps", () => demoFleetSteps()],
  ])('give identical corrections for %s', async (_name, input) => {
    // One pass, embedded. The separate stage services are compared with a replay on the broker
    // (conformance-and-fleet-same-decisions-on-kafka.int-spec.ts): their localizer holds steps of a task
    // with no map on a timer (the conformance cases post none), which a step-by-step settle does not wait for.
    const { tasks, steps } = input();
    const guard = await throughGuard(tasks, steps);
    const onePass = await throughFleet(tasks, steps);
    expect(guard.length).toBeGreaterThan(3);
    expect(onePass.map(withoutTs)).toEqual(guard.map(withoutTs));
  }, 120_000);

  it('climb the whole ladder for the looping agent only', async () => {
    const { tasks, steps } = readStepFile(FILES[1]);
    const corrections = await throughGuard(tasks, steps);
    expect(corrections.map((c) => `${c.tenantId}/${c.agentId}:${c.action}`)).toEqual(['acme/looper:hint', 'acme/looper:rollback', 'acme/looper:replan', 'acme/looper:freeze']);
  });
});
