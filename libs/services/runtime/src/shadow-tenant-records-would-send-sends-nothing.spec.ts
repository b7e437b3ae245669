/**
 * Shadow mode, embedded: two tenants run the same loop; the shadow tenant's agent gets deviations and
 * would-send records in its history and no correction at all, the other tenant's agent is corrected.
 * Then an operator marks the shadow agent's deviation a false positive: the detector worker stops
 * raising that pattern for that agent.
 */
import type { Correction, Deviation, StepEvent, TenantPolicy } from '@wayfinder/contracts';
import { InProcessBus } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { HeaderTenantGuard } from '@wayfinder/service-operations/testing';
import { agentTimeline, OperationsHttpModule } from '@wayfinder/service-operations';
import { Module } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { startServices, type RunningServices } from './runtime';

async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${probe.toString().slice(0, 120)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function loop(tenantId: string, agentId: string, from: number, calls: number): StepEvent[] {
  const steps: StepEvent[] = [];
  let seq = from;
  for (let i = 0; i < calls; i++) {
    const base = { schema: 'wayfinder.step.v1' as const, tenantId, agentId, taskId: 'report', runId: null, ts: new Date().toISOString() };
    steps.push({ ...base, eventId: `${tenantId}-${agentId}-${seq}`, seq: seq++, kind: 'action', action: { tool: 'read_file', args: { path: '/data/sales.csv' }, callId: `c${seq}` } });
    steps.push({ ...base, eventId: `${tenantId}-${agentId}-${seq}`, seq: seq++, kind: 'observation', observation: { tool: 'read_file', callId: `c${seq - 1}`, ok: false, error: 'EACCES: permission denied' } });
  }
  return steps;
}

describe('a shadow-mode tenant: deviations and would-send records, zero corrections', () => {
  let running: RunningServices;
  const deviations: Deviation[] = [];
  const corrections: Correction[] = [];

  beforeAll(async () => {
    const bus = new InProcessBus();
    bus.subscribe('wayfinder.deviations.v1', async (batch) => void deviations.push(...batch.map((d) => d.payload)), { groupId: 'test' });
    bus.subscribe('wayfinder.corrections.v1', async (batch) => void corrections.push(...batch.map((d) => d.payload)), { groupId: 'test' });
    running = await startServices(loadConfig({}), { bus, logger: false });
  });

  afterAll(async () => {
    await running.stop();
  });

  it('records what would have been sent and sends nothing; a false-positive mark silences the pattern', async () => {
    const shadow: TenantPolicy = { schema: 'wayfinder.policy.v1', eventId: 'p-shadow', tenantId: 'trial', ts: new Date().toISOString(), policy: {}, shadow: true, falsePositiveSuppressMs: 60_000 };
    await running.bus.publish('wayfinder.policies.v1', [shadow]);
    await until(() => running.policyBook.tenant('trial')?.shadow === true);
    await running.bus.publish('wayfinder.steps.v1', [...loop('trial', 'agent-1', 0, 8), ...loop('live', 'agent-1', 0, 8)]);

    await until(() => corrections.some((c) => c.tenantId === 'live'));
    const history = await until(async () => {
      const records = await running.history.agentHistory('trial', 'agent-1');
      return records.some((r) => r.kind === 'would-send') ? records : undefined;
    });
    expect(deviations.filter((d) => d.tenantId === 'trial').length).toBeGreaterThan(0);
    expect(history.filter((r) => r.kind === 'deviation').length).toBeGreaterThan(0);
    const wouldSend = history.filter((r) => r.kind === 'would-send');
    expect(wouldSend[0]).toMatchObject({ kind: 'would-send', action: 'hint' });
    expect(history.filter((r) => r.kind === 'correction')).toEqual([]);
    expect(corrections.filter((c) => c.tenantId === 'trial')).toEqual([]);
    const timeline = await agentTimeline(running.history, 'trial', 'agent-1');
    expect(timeline?.wouldSend.length).toBe(wouldSend.length);
    expect(timeline?.corrections).toEqual([]);

    // The operator marks the deviation a false positive through the query API.
    @Module({ imports: [OperationsHttpModule.forRoot({ store: running.history, bus: running.bus, policies: running.policyBook })], providers: [{ provide: APP_GUARD, useClass: HeaderTenantGuard }] })
    class ApiModule {}
    const app = await NestFactory.create(ApiModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    try {
      const { port } = app.getHttpServer().address() as { port: number };
      const marked = deviations.find((d) => d.tenantId === 'trial' && d.detector === 'error_repeat');
      if (!marked) throw new Error(`no error_repeat deviation for trial: ${deviations.map((d) => d.detector).join(',')}`);
      const response = await fetch(`http://127.0.0.1:${port}/v1/deviations/${marked.eventId}/false-positive`, { method: 'POST', headers: { 'x-test-tenant': 'trial', 'x-test-operator': '1' } });
      expect(response.status).toBe(202);
    } finally {
      await app.close();
    }
    // The same loop goes on: no further error_repeat deviation for this agent, while another agent's still comes.
    const before = deviations.filter((d) => d.tenantId === 'trial' && d.agentId === 'agent-1' && d.detector === 'error_repeat').length;
    await new Promise((r) => setTimeout(r, 200));
    await running.bus.publish('wayfinder.steps.v1', [...loop('trial', 'agent-1', 16, 6), ...loop('trial', 'agent-2', 0, 6)]);
    await until(() => deviations.some((d) => d.tenantId === 'trial' && d.agentId === 'agent-2' && d.detector === 'error_repeat'));
    await until(async () => ((await running.history.agent('trial', 'agent-1'))?.lastSeq === 27 ? true : undefined));
    expect(deviations.filter((d) => d.tenantId === 'trial' && d.agentId === 'agent-1' && d.detector === 'error_repeat').length).toBe(before);
  });
});
