/**
 * The memory service's event handlers on the in-process bus: a map writes the charter, localized steps
 * push checkpoints at completed milestones, overwrite STATE and append user feedback as numbered
 * constraints, agent outputs become long-term memories when the write rules allow, and a rollback pops
 * the stack back to its checkpoint and puts the failure reason in STATE.
 */
import { localized, reportMap, rollback, startEmbeddedMemoryService, until, type AgentRef, type EmbeddedMemoryService } from './memory-service.testing';

describe('memory service events', () => {
  let service: EmbeddedMemoryService;
  const agent: AgentRef = { tenantId: 'acme', taskId: 'report', agentId: 'writer-1' };

  beforeAll(async () => {
    service = await startEmbeddedMemoryService();
  });
  afterAll(() => service.stop());

  const memory = () => service.stores.workingMemory;

  it('writes the charter of a map: goal in one sentence, hard constraints numbered', async () => {
    await service.bus.publish('wayfinder.maps.v1', [reportMap(agent.tenantId, agent.taskId)]);
    const charter = await until(() => memory().getCharter(agent), 'the charter');
    expect(charter).toEqual({
      goal: 'Write a market report on 5 competitors of Acme.',
      constraints: [
        { n: 1, text: 'Only use public sources', source: 'task' },
        { n: 2, text: 'Never contact the competitors', source: 'goal' },
      ],
    });
  });

  it('appends feedback as the next numbered constraint, once, and keeps it across a newer map', async () => {
    const feedback = localized(agent, 1, { kind: 'feedback', feedback: { text: 'Do not cite Wikipedia' } });
    await service.bus.publish('wayfinder.localized.v1', [feedback, feedback]);
    const charter = await until(async () => (await memory().getCharter(agent))?.constraints.find((c) => c.n === 3) && memory().getCharter(agent), 'feedback');
    expect(charter.constraints).toEqual([
      { n: 1, text: 'Only use public sources', source: 'task' },
      { n: 2, text: 'Never contact the competitors', source: 'goal' },
      { n: 3, text: 'Do not cite Wikipedia', source: 'feedback' },
    ]);

    const v2 = reportMap(agent.tenantId, agent.taskId, 2);
    v2.constraints.push({ id: 'c4', text: 'Answer in English', hard: true, source: 'task' });
    await service.bus.publish('wayfinder.maps.v1', [v2]);
    const merged = await until(async () => ((await memory().getCharter(agent))?.constraints.length === 4 ? memory().getCharter(agent) : undefined), 'the v2 charter');
    expect(merged.constraints.map((c) => `${c.n}. ${c.text}`)).toEqual([
      '1. Only use public sources',
      '2. Never contact the competitors',
      '3. Do not cite Wikipedia',
      '4. Answer in English',
    ]);
  });

  it('pushes a checkpoint when a milestone completes and overwrites STATE with the conclusion', async () => {
    await service.bus.publish('wayfinder.localized.v1', [
      localized(agent, 2, { kind: 'action', action: { tool: 'web_search', args: { q: 'acme competitors' } } }),
      localized(agent, 3, { kind: 'message', message: { role: 'assistant', type: 'output', text: 'Result: the competitors are Alpha, Beta, Gamma, Delta and Epsilon.' } }),
      localized(agent, 4, { kind: 'milestone', milestone: { id: 'collect', status: 'done' } }, { milestoneId: 'pricing', completed: ['collect'], progress: 0.33 }),
      localized(agent, 5, { kind: 'action', action: { tool: 'fetch', args: { url: 'https://alpha.example/pricing' } } }, { milestoneId: 'pricing', completed: ['collect'], progress: 0.4 }),
    ]);
    await until(async () => (await memory().listCheckpoints(agent)).length === 1, 'the checkpoint');
    const state = await until(() => memory().getState(agent), 'STATE');
    // Seq 5 changed nothing STATE shows, so the snapshot of seq 4 stands (no write per step).
    expect(state.seq).toBe(4);
    expect(state.text).toContain('stage: 2/3 — collect pricing of each competitor');
    expect(state.text).toContain('current conclusion: Result: the competitors are Alpha, Beta, Gamma, Delta and Epsilon.');
    expect(state.text.match(/^STATE$/gm)).toHaveLength(1); // overwritten, not appended
    expect(await memory().listCheckpoints(agent)).toEqual([
      { id: 'cp:report:collect:4', milestoneId: 'collect', seq: 4, state: expect.stringContaining('completed:\n  - collect') },
    ]);
  });

  it('remembers outputs the write rules accept and not those they refuse', async () => {
    const onPricing = { milestoneId: 'pricing', completed: ['collect'] };
    await service.bus.publish('wayfinder.localized.v1', [
      localized(agent, 6, { kind: 'message', message: { role: 'assistant', type: 'output', text: 'Maybe Beta is cheaper, not sure yet' } }, onPricing),
      localized(agent, 7, { kind: 'message', message: { role: 'assistant', type: 'thought', text: 'Therefore I should look at Gamma next.' } }, onPricing),
      localized(agent, 8, { kind: 'message', message: { role: 'assistant', type: 'output', text: 'Result: Alpha charges $30 per seat.' } }, onPricing),
    ]);
    const everything = await until(async () => {
      const found = await service.stores.vectorStore.query({ tenantId: agent.tenantId, vector: new Array(256).fill(1), limit: 50 });
      return found.length === 3 ? found : undefined;
    }, 'the third memory');
    expect(everything.map((h) => [h.payload.kind, h.payload.text, h.payload.milestoneId ?? null]).sort()).toEqual([
      ['conclusion', 'Result: Alpha charges $30 per seat.', 'pricing'],
      ['conclusion', 'Result: the competitors are Alpha, Beta, Gamma, Delta and Epsilon.', 'collect'],
      ['correction', 'Do not cite Wikipedia', null],
    ]);
    // Seq 8 is handled after 6 and 7 (one partition per agent): they were refused, not still pending.
    const state = await until(async () => ((await memory().getState(agent))?.seq === 8 ? memory().getState(agent) : undefined), 'STATE at seq 8');
    expect(state.text).toContain('current conclusion: Result: Alpha charges $30 per seat.');
  });

  it('rolls back to the named checkpoint and writes the failure reason into STATE', async () => {
    await service.bus.publish('wayfinder.localized.v1', [
      localized(agent, 9, { kind: 'milestone', milestone: { id: 'pricing', status: 'done' } }, { milestoneId: 'write', completed: ['collect', 'pricing'], progress: 0.66 }),
      localized(agent, 10, { kind: 'action', action: { tool: 'search', args: { q: 'x' } } }, { milestoneId: 'write', completed: ['collect', 'pricing'], progress: 0.7 }),
    ]);
    await until(async () => (await memory().listCheckpoints(agent)).length === 2, 'the second checkpoint');
    await service.bus.publish('wayfinder.corrections.v1', [rollback(agent, 12, 'cp:report:collect:4', 'the same search repeated 11 times with the same result')]);
    const state = await until(async () => ((await memory().getState(agent))?.text.includes('last attempt failed') ? memory().getState(agent) : undefined), 'the failure in STATE');
    expect((await memory().listCheckpoints(agent)).map((c) => c.id)).toEqual(['cp:report:collect:4']);
    expect(state.seq).toBe(12);
    expect(state.text).toContain('stage: 2/3 — collect pricing of each competitor'); // the checkpoint's STATE
    expect(state.text).toContain('current conclusion: Result: the competitors are'); // as it was at the checkpoint
    expect(state.text.split('\n').at(-1)).toBe('last attempt failed: the same search repeated 11 times with the same result');

    // The next rendered STATE keeps the reason until a milestone completes.
    await service.bus.publish('wayfinder.localized.v1', [
      localized(agent, 13, { kind: 'message', message: { role: 'assistant', type: 'output', text: 'Result: Beta charges $12 per seat.' } }, { milestoneId: 'pricing', completed: ['collect'], progress: 0.4 }),
    ]);
    const next = await until(async () => ((await memory().getState(agent))?.seq === 13 ? memory().getState(agent) : undefined), 'STATE at seq 13');
    expect(next.text).toContain('current conclusion: Result: Beta charges $12 per seat.');
    expect(next.text).toContain('last attempt failed: the same search repeated 11 times');
  });
});
