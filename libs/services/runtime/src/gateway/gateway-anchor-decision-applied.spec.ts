// POST /v1/agents/{agentId}/anchors/{anchorId} through the embedded runtime: a feedback step posted to
// /v1/steps makes the state-localizer propose an anchor change; the route confirms it, and the task's
// map gets a new version with the new anchor. A rejection changes nothing; a bad body is a 400 naming
// the field; another tenant's key cannot decide on the task (404) and its map stays as it was.
import { InProcessBus } from '@wayfinder/bus';
import type { AnchorChange } from '@wayfinder/contracts';
import type { RunningServices } from '../runtime';
import { call, eventually, startWithGateway } from './gateway.testing';

const A = 'acme-anchor-key';
const B = 'globex-anchor-key';
const TASK = { taskId: 'market', goal: 'Collect pricing for at least 5 competitors, then write the market report' };

describe('an anchor change confirmed through the gateway', () => {
  let running: RunningServices;
  let base: string;
  const changes: AnchorChange[] = [];

  beforeAll(async () => {
    const bus = new InProcessBus();
    bus.subscribe('wayfinder.anchor-changes.v1', async (batch) => void changes.push(...batch.map((d) => d.payload as AnchorChange)), { groupId: 'observer' });
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A},globex:${B}` }, { bus });
    base = running.gateway!.url;
    expect((await call(base, 'POST', '/v1/tasks', { key: A, body: TASK })).status).toBe(201);
    await eventually(async () => (await running.mapStore.get('acme', 'market')) !== undefined, 10_000, 'the map of task market');
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('applies the confirmed proposal as the next map version, and refuses bad bodies and other tenants', async () => {
    const feedback = { agentId: 'analyst', taskId: 'market', runId: 'r1', seq: 0, kind: 'feedback', feedback: { text: 'One competitor has no public data: cover 4 competitors instead of 5' } };
    expect(await call(base, 'POST', '/v1/steps', { key: A, body: [feedback] })).toMatchObject({ status: 202, body: { accepted: 1 } });
    await eventually(async () => changes.some((c) => c.kind === 'proposed' && c.taskId === 'market'), 10_000, 'a proposed anchor change');
    const proposal = changes.find((c) => c.kind === 'proposed')!;
    expect(proposal).toMatchObject({ tenantId: 'acme', to: { target: 4 } });
    const path = `/v1/agents/analyst/anchors/${proposal.anchorId}`;

    // Bad bodies name the field, and publish nothing.
    expect(await call(base, 'POST', path, { key: A, body: { decision: 'accept', to: { target: 4 } } })).toMatchObject({ status: 400, body: { field: 'taskId' } });
    expect(await call(base, 'POST', path, { key: A, body: { taskId: 'market', decision: 'maybe' } })).toMatchObject({ status: 400, body: { field: 'decision' } });
    expect(await call(base, 'POST', path, { key: A, body: { taskId: 'market', decision: 'accept', proposalId: proposal.proposalId } })).toMatchObject({ status: 400, body: { field: 'to' } });
    expect(await call(base, 'POST', path, { key: A, body: { taskId: 'market', decision: 'accept', to: { target: -1 } } })).toMatchObject({ status: 400, body: { field: 'to.target' } });
    expect(await call(base, 'POST', path, { key: A, raw: '{"taskId": ' })).toMatchObject({ status: 400 });
    expect(await call(base, 'POST', '/v1/agents/analyst/anchors/no-such-anchor', { key: A, body: { taskId: 'market', decision: 'accept', to: { target: 4 } } })).toMatchObject({ status: 404 });

    // Another tenant: no key → 401, its key cannot see the task (404), nothing changes.
    expect(await call(base, 'POST', path, { body: { taskId: 'market', decision: 'accept', to: { target: 1 } } })).toMatchObject({ status: 401 });
    expect(await call(base, 'POST', path, { key: B, body: { taskId: 'market', decision: 'accept', to: { target: 1 } } })).toMatchObject({ status: 404 });

    // A rejection is published and changes nothing.
    expect(await call(base, 'POST', path, { key: A, body: { taskId: 'market', decision: 'reject', proposalId: 'other-proposal', reason: 'keep five' } })).toMatchObject({ status: 202, body: { kind: 'rejected' } });
    await eventually(async () => changes.some((c) => c.kind === 'rejected'), 10_000, 'the rejection');
    expect((await running.mapStore.get('acme', 'market'))?.version).toBe(1);

    const confirmed = await call(base, 'POST', path, { key: A, body: { taskId: 'market', decision: 'accept', proposalId: proposal.proposalId, to: proposal.to, reason: 'approved by the analyst lead' } });
    expect(confirmed).toMatchObject({ status: 202, body: { kind: 'confirmed', taskId: 'market', anchorId: proposal.anchorId, proposalId: proposal.proposalId } });
    await eventually(async () => (await running.mapStore.get('acme', 'market'))?.version === 2, 10_000, 'map version 2');
    const map = (await running.mapStore.get('acme', 'market'))!;
    expect(map.anchors.find((a) => a.id === proposal.anchorId)?.target).toBe(4);
    expect(map.anchorChanges?.[0]).toMatchObject({ proposalId: proposal.proposalId, acceptedBy: 'user', reason: 'approved by the analyst lead' });
    expect(changes.filter((c) => c.kind !== 'proposed').every((c) => c.tenantId === 'acme' && c.source === 'api')).toBe(true);
    expect(changes.some((c) => c.tenantId === 'globex')).toBe(false);
  });
});
