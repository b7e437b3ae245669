/** Builders and a running embedded memory service for the memory-service specs. Test-only. */
import type { CognitiveMap, Correction, LocalizedStep, Position, StepEvent } from '@wayfinder/contracts';
import { InProcessBus } from '@wayfinder/bus';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { memoryStores, type MemoryStores } from './memory-stores';
import { startMemoryService, type RunningMemoryService } from './start-memory-service';

export const TS = '2026-01-01T00:00:00.000Z';

export function reportMap(tenantId: string, taskId: string, version = 1): CognitiveMap {
  return {
    schema: 'wayfinder.map.v1', eventId: `map-${taskId}-${version}`, tenantId, ts: TS, taskId, version,
    goal: 'Write a market report on 5 competitors of Acme. Use public data only.',
    targetState: 'a report covering 5 competitors',
    milestones: [
      { id: 'collect', description: 'collect the list of competitors', dependsOn: [], validator: { type: 'marker' } },
      { id: 'pricing', description: 'collect pricing of each competitor', dependsOn: ['collect'], validator: { type: 'marker' } },
      { id: 'write', description: 'write the report', dependsOn: ['pricing'], validator: { type: 'marker' } },
    ],
    anchors: [{ id: 'competitors', text: '5 competitors', target: 5, unit: 'competitors', comparator: 'atLeast', hard: true }],
    constraints: [
      { id: 'c1', text: 'Only use public sources', hard: true, source: 'task' },
      { id: 'c2', text: 'Prefer recent data', hard: false, source: 'goal' },
      { id: 'c3', text: 'Never contact the competitors', hard: true, source: 'goal' },
    ],
  };
}

export interface AgentRef {
  tenantId: string;
  taskId: string;
  agentId: string;
}

type StepBody =
  | { kind: 'action'; action: { tool: string; args: Record<string, string> } }
  | { kind: 'message'; message: { role: 'assistant'; text: string; type: 'output' | 'thought' } }
  | { kind: 'milestone'; milestone: { id: string; status: 'done'; evidence?: string } }
  | { kind: 'feedback'; feedback: { text: string } };

export function localized(agent: AgentRef, seq: number, body: StepBody, position: Partial<Position> = {}): LocalizedStep {
  const step = { schema: 'wayfinder.step.v1', eventId: `${agent.agentId}-${seq}`, ...agent, runId: 'run-1', seq, ts: TS, ...body } as StepEvent;
  return {
    schema: 'wayfinder.localized.v1', eventId: `loc-${agent.agentId}-${seq}`, tenantId: agent.tenantId, ts: TS, step,
    position: { milestoneId: 'collect', completed: [], progress: 0, confidence: 1, method: 'signal', ...position },
  };
}

export function rollback(agent: AgentRef, atSeq: number, checkpointId: string, reason: string): Correction {
  return {
    schema: 'wayfinder.correction.v1', eventId: `corr-${agent.agentId}-${atSeq}`, tenantId: agent.tenantId, ts: TS,
    agentId: agent.agentId, taskId: agent.taskId, runId: 'run-1', deviationIds: ['dev-1'], severity: 'moderate', atSeq, reason,
    action: 'rollback', rollback: { checkpointId, milestoneId: null, discardAfterSeq: 0 },
  };
}

export async function until<T>(probe: () => Promise<T | undefined | false>, what: string, timeoutMs = 5_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface EmbeddedMemoryService extends RunningMemoryService {
  bus: InProcessBus;
  stores: MemoryStores;
}

export async function startEmbeddedMemoryService(): Promise<EmbeddedMemoryService> {
  const bus = new InProcessBus();
  const embedder = new HashingEmbedder();
  const stores = memoryStores({ mode: 'embedded', dimension: embedder.dimension });
  const running = await startMemoryService({ bus, stores, embedder, logger: false, apiKeys: testTenantOfKey });
  return { ...running, bus, stores, stop: running.stop };
}

export interface JsonResponse {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field
}

/** Test keys: `test-key:<tenant>` opens that tenant (the API never runs without keys). */
export const testTenantOfKey = (key: string): string | undefined => (key.startsWith('test-key:') ? decodeURIComponent(key.slice('test-key:'.length)) : undefined);

/** The test key of the tenant a path names (`/v1/tenants/<tenant>/…`). */
export function testKeyFor(path: string): string {
  return `test-key:${/^\/v1\/tenants\/([^/]+)/.exec(path)?.[1] ?? ''}`;
}

/**
 * A JSON request to the running service (global fetch against `app.listen(0)`), with the test key of the
 * tenant in the path (`key` overrides it; null sends none).
 */
export async function request(baseUrl: string, method: 'GET' | 'POST', path: string, body?: unknown, key: string | null = testKeyFor(path)): Promise<JsonResponse> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(key !== null && { authorization: `Bearer ${key}` }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text.length > 0 ? JSON.parse(text) : undefined };
}

/** Publishes a map and a few localized steps (one milestone completed) for an agent and waits until they are applied. */
export async function seedAgent(service: EmbeddedMemoryService, agent: AgentRef): Promise<void> {
  await service.bus.publish('wayfinder.maps.v1', [reportMap(agent.tenantId, agent.taskId)]);
  await service.bus.publish('wayfinder.localized.v1', [
    localized(agent, 1, { kind: 'feedback', feedback: { text: 'Do not cite Wikipedia' } }),
    localized(agent, 2, { kind: 'message', message: { role: 'assistant', type: 'output', text: 'Result: found 3 competitors: Alpha, Beta and Gamma.' } }),
    localized(agent, 3, { kind: 'milestone', milestone: { id: 'collect', status: 'done' } }, { milestoneId: 'pricing', completed: ['collect'], progress: 0.33 }),
    localized(agent, 4, { kind: 'action', action: { tool: 'fetch', args: { url: 'https://alpha.example/pricing' } } }, { milestoneId: 'pricing', completed: ['collect'], progress: 0.4 }),
  ]);
  await until(async () => (await service.stores.workingMemory.listCheckpoints(agent)).length === 1, `the checkpoint of ${agent.agentId}`);
  await until(async () => (await service.stores.workingMemory.getCharter(agent))?.constraints.some((c) => c.source === 'feedback'), 'the feedback constraint');
}
