/**
 * Dynamic anchors across the services on the in-process bus: the state-localizer turns a feedback step
 * into a proposed AnchorChange; the task-parser applies a confirmed one (what the gateway publishes for
 * POST /v1/agents/{id}/anchors/{anchorId}) or, with the tenant's anchors.autoAccept, the proposal itself,
 * as the map's next version. Bad decisions go to the DLQ with the reason; tenants stay apart.
 */
import { ANCHOR_CHANGE_SCHEMA, DLQ_HEADERS, type AnchorChange, type CognitiveMap, type StepEvent, type TaskSpec } from '@wayfinder/contracts';
import { InProcessBus } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { until } from '@wayfinder/testing';
import { startServices, type RunningServices } from './runtime';

const ts = '2026-01-01T00:00:00.000Z';
const task = (tenantId: string, taskId: string, goal = 'Collect pricing for at least 5 competitors, then write the market report'): TaskSpec => ({ schema: 'wayfinder.task.v1', eventId: `${tenantId}-${taskId}`, tenantId, ts, taskId, goal });
const feedback = (tenantId: string, taskId: string, text: string): StepEvent => ({ schema: 'wayfinder.step.v1', eventId: `${tenantId}-${taskId}-fb`, tenantId, ts, agentId: 'agent-1', taskId, runId: 'r1', seq: 1, kind: 'feedback', feedback: { text } });

describe('anchor changes through the task-parser and the state-localizer', () => {
  let running: RunningServices;
  const maps: CognitiveMap[] = [];
  const changes: AnchorChange[] = [];
  const dlq: Array<{ value: string; error: string }> = [];

  beforeAll(async () => {
    const bus = new InProcessBus();
    bus.subscribe('wayfinder.maps.v1', async (batch) => void maps.push(...batch.map((d) => d.payload)), { groupId: 'test' });
    bus.subscribe('wayfinder.anchor-changes.v1', async (batch) => void changes.push(...batch.map((d) => d.payload)), { groupId: 'test' });
    bus.subscribeRaw('wayfinder.anchor-changes.v1.dlq', async (batch) => void dlq.push(...batch.map((d) => ({ value: d.payload.toString('utf8'), error: String(d.headers[DLQ_HEADERS.error]) }))), { groupId: 'test' });
    running = await startServices(loadConfig({}, { services: 'task-parser,state-localizer' }), { bus, logger: false });
  });

  afterAll(() => running.stop());

  const latest = (tenantId: string, taskId: string) => maps.filter((m) => m.tenantId === tenantId && m.taskId === taskId).at(-1);

  it('proposes from feedback, waits, and applies the confirmation as version 2', async () => {
    await running.bus.publish('wayfinder.tasks.v1', [task('t1', 'report')]);
    await until(() => latest('t1', 'report') !== undefined);
    await running.bus.publish('wayfinder.steps.v1', [feedback('t1', 'report', 'One competitor has no public data: cover 4 competitors instead of 5')]);
    await until(() => changes.some((c) => c.taskId === 'report' && c.kind === 'proposed'));
    const proposal = changes.find((c) => c.taskId === 'report')!;
    expect(proposal).toMatchObject({ tenantId: 't1', kind: 'proposed', source: 'feedback', to: { target: 4 } });
    expect(latest('t1', 'report')?.version).toBe(1);

    const confirmed: AnchorChange = { ...proposal, schema: ANCHOR_CHANGE_SCHEMA, eventId: 'decision-1', kind: 'confirmed', source: 'api', reason: 'approved' };
    await running.bus.publish('wayfinder.anchor-changes.v1', [confirmed, { ...confirmed, eventId: 'decision-1-again' }]);
    await until(() => latest('t1', 'report')?.version === 2);
    const map = latest('t1', 'report')!;
    expect(map.anchors[0].target).toBe(4);
    expect(map.anchorChanges?.[0]).toMatchObject({ acceptedBy: 'user', reason: 'approved' });
    expect((await running.mapStore.get('t1', 'report'))?.version).toBe(2);
  });

  it('applies the proposal itself when the tenant policy auto-accepts', async () => {
    await running.bus.publish('wayfinder.policies.v1', [{ schema: 'wayfinder.policy.v1', eventId: 'p-auto', tenantId: 't2', ts, policy: { anchors: { autoAccept: true } } }]);
    await until(() => running.policyBook.policyOf('t2', 'auto', 'agent-1').anchors.autoAccept);
    await running.bus.publish('wayfinder.tasks.v1', [task('t2', 'auto', '收集至少5个竞品的价格，然后撰写市场分析报告')]);
    await until(() => latest('t2', 'auto') !== undefined);
    await running.bus.publish('wayfinder.steps.v1', [feedback('t2', 'auto', '把竞品改为4个竞品，其中一家没有公开数据')]);
    await until(() => latest('t2', 'auto')?.version === 2);
    expect(latest('t2', 'auto')?.anchorChanges?.[0].acceptedBy).toBe('policy');
  });

  it('dead-letters a decision for an unknown anchor or another tenant\'s task, naming why', async () => {
    const base: AnchorChange = { schema: ANCHOR_CHANGE_SCHEMA, eventId: 'bad-1', tenantId: 't1', ts, taskId: 'report', anchorId: 'nope', proposalId: 'px', kind: 'confirmed', to: { target: 3 }, reason: 'r', source: 'api' };
    await running.bus.publish('wayfinder.anchor-changes.v1', [base, { ...base, eventId: 'bad-2', tenantId: 't3', anchorId: latest('t1', 'report')!.anchors[0].id }]);
    await until(() => dlq.length >= 2);
    expect(dlq.map((d) => d.error)).toEqual([expect.stringContaining('anchorId: no anchor nope'), expect.stringContaining('no map for task report')]);
    expect(latest('t1', 'report')?.version).toBe(2);
  });
});
