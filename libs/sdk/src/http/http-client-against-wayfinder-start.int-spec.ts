/**
 * The HTTP client against the real gateway of `wayfinder start` (embedded, local mode): a 25-call
 * identical loop receives a hint and then a stronger correction over SSE and acknowledges them, and the
 * in-process guard gives the same corrections as the gateway's fleet for the same step file; an agent
 * rerun with the same id receives none of the earlier run's corrections (fromStart replays them).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { StepEvent as StepEventSchema, TaskSpec as TaskSpecSchema, type Correction, type StepEvent, type TaskSpec } from '@wayfinder/contracts';
import { connectHttp } from '../connect';
import { GuardTransport } from '../guard/guard-transport';
import { HttpTransport } from './http-transport';
import { startWayfinder, type WayfinderStart } from '../testing/wayfinder-start.testing';

async function until(predicate: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the HTTP client against wayfinder start', () => {
  let wayfinder: WayfinderStart;
  beforeAll(async () => (wayfinder = await startWayfinder()), 150_000);
  afterAll(() => wayfinder?.stop());

  it('gets a hint and then a stronger correction over SSE for an identical loop', async () => {
    const { baseUrl } = wayfinder;
    const client = connectHttp({ baseUrl, agentId: 'ts-looper', taskId: 'sales-report', runId: 'run-1', batchSize: 10 });
    const map = await client.task({ goal: 'Read the sales data -> compute the totals -> write the report' });
    expect(map).toMatchObject({ taskId: 'sales-report', tenantId: 'local' });
    expect(map?.milestones.length).toBe(3);
    const seen: Correction[] = [];
    const subscription = client.onCorrection(async (c) => {
      seen.push(c);
      await client.ack(c);
    });
    for (let i = 0; i < 25; i++) {
      const callId = await client.action('read_file', { path: '/data/sales.csv' });
      await client.observation('read_file', { callId, error: 'EACCES: permission denied' });
    }
    expect(await client.flush()).toMatchObject({ rejected: [] });
    await until(() => seen.some((c) => c.action !== 'hint'), `a correction stronger than a hint (log:\n${wayfinder.log()})`);
    expect(seen[0]).toMatchObject({ action: 'hint', agentId: 'ts-looper', tenantId: 'local', severity: 'mild' });
    expect(seen.map((c) => c.action)).toEqual(expect.arrayContaining(['rollback']));
    expect(new Set(seen.map((c) => c.eventId)).size).toBe(seen.length);
    expect(subscription.cursor).toBeDefined();
    await subscription.close();
    await client.close();
  }, 120_000);

  it('sends a restarted agent none of the earlier run but its standing freeze, and nothing once resumed', async () => {
    const { baseUrl } = wayfinder;
    const first = connectHttp({ baseUrl, agentId: 'ts-rerun', taskId: 'sales-report', runId: 'run-1', batchSize: 10 });
    const earlier: Correction[] = [];
    first.onCorrection((c) => void earlier.push(c));
    for (let i = 0; i < 25; i++) {
      const callId = await first.action('read_file', { path: '/data/sales.csv' });
      await first.observation('read_file', { callId, error: 'EACCES: permission denied' });
    }
    await first.flush();
    await until(() => earlier.some((c) => c.action === 'freeze'), 'the first run to be frozen');
    await first.close();

    const freeze = earlier.find((c) => c.action === 'freeze')!;
    expect(earlier.length).toBeGreaterThan(1); // hints and the rest came before the freeze
    const rerunSees = async (runId: string | undefined): Promise<Correction[]> => {
      const rerun = connectHttp({ baseUrl, agentId: 'ts-rerun', taskId: 'sales-report', runId });
      const seen: Correction[] = [];
      rerun.onCorrection((c) => void seen.push(c));
      await rerun.message('starting over');
      await rerun.flush();
      await new Promise((r) => setTimeout(r, 1_500));
      await rerun.close();
      return seen;
    };
    // Still frozen: a rerun, with a new runId or none, learns that first, and nothing else of the earlier run.
    for (const runId of ['run-2', undefined]) expect((await rerunSees(runId)).map((c) => c.eventId)).toEqual([freeze.eventId]);
    // Resumed by a human: a rerun is sent nothing of the earlier run.
    expect((await fetch(`${baseUrl}/v1/agents/ts-rerun/resume`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(202);
    expect(await rerunSees('run-3')).toEqual([]);

    const replay = connectHttp({ baseUrl, agentId: 'ts-rerun', taskId: 'sales-report' });
    const replayed: Correction[] = [];
    replay.onCorrection((c) => void replayed.push(c), { fromStart: true });
    await until(() => replayed.length >= earlier.length, 'the replayed log');
    expect(replayed.map((c) => c.eventId)).toEqual(earlier.map((c) => c.eventId));
    await replay.close();
  });

  it('gives the same corrections as the guard for the same step file', async () => {
    const file = path.join(__dirname, '../guard/fixtures/identical-loop-and-healthy-agent.jsonl');
    const tasks: TaskSpec[] = [];
    const steps: StepEvent[] = [];
    for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
      const raw = JSON.parse(line);
      const task = TaskSpecSchema.safeParse(raw);
      if (task.success) tasks.push(task.data);
      const step = StepEventSchema.safeParse(raw);
      if (step.success) steps.push(step.data);
    }
    // The step file's agents live in tenants acme and globex: ids of this run keep them apart from the test above.
    const guard = new GuardTransport();
    for (const task of tasks) guard.addTask(task);
    const byGuard: Correction[] = [];
    const agents = [...new Set(steps.map((s) => `${s.tenantId}/${s.agentId}`))].map((k) => k.split('/') as [string, string]);
    for (const [tenantId, agentId] of agents) guard.subscribe({ tenantId, agentId, deliver: async ({ correction }) => void byGuard.push(correction) });
    for (const step of steps) await guard.publish([step]);

    const { baseUrl } = wayfinder;
    for (const task of tasks) {
      const created = await fetch(`${baseUrl}/v1/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(task) });
      expect(created.status).toBe(201);
    }
    const http = new HttpTransport({ baseUrl });
    // One step per request, as the agent made them.
    for (const step of steps) expect(await http.publish([step])).toEqual({ accepted: 1, rejected: [] });
    const byFleet: Correction[] = [];
    await until(() => {
      return byFleet.length >= byGuard.length;
    }, 'the fleet\'s corrections', 1).catch(() => undefined);
    const deadline = Date.now() + 60_000;
    while (byFleet.length < byGuard.length && Date.now() < deadline) {
      byFleet.length = 0;
      for (const [tenantId, agentId] of agents) byFleet.push(...(await http.corrections(agentId, undefined, 0, tenantId)).corrections);
      if (byFleet.length < byGuard.length) await new Promise((r) => setTimeout(r, 250));
    }
    const withoutTs = (c: Correction) => ({ ...c, ts: undefined });
    expect(byGuard.map((c) => c.action)).toEqual(['hint', 'rollback', 'replan', 'freeze']);
    expect(byFleet.map(withoutTs)).toEqual(byGuard.map(withoutTs));
    await http.close();
  }, 120_000);
});
