/** near_duplicate_calls (P11): a chat poll with a fresh poll id each time while nothing new arrives. */
import type { StepEvent } from '@wayfinder/contracts';
import { engineFor, runAll, steps } from './test-support/step-builder';
import { maskVolatileArgs } from './fingerprint/volatile-args';

const uuid = (i: number) => `${(0x8f0c1a1e + i * 7919).toString(16)}-3b2d-4c5e-9f10-${String(123456789012 + i)}`;

describe('a poll whose poll id is fresh each time', () => {
  it('is the same call once the id is masked: a hint at the third poll when the two before it brought nothing new', () => {
    const s = steps();
    const events: StepEvent[] = [];
    for (let i = 0; i < 4; i++) events.push(s.act('read_messages', { channel: 'ops', pollId: uuid(i), since: `2026-01-01T00:0${i}:00Z` }), s.ok('read_messages', 'No new messages.'));
    const out = runAll(engineFor(), events).filter((d) => d.detector === 'near_duplicate_calls');
    expect(out[0]).toMatchObject({ level: 'warning', count: 2, atSeq: 4, loopStartSeq: 0 });
    expect(out[0].evidence).toMatchObject({ tool: 'read_messages', identicalArgs: true, early: true });
  });

  it('stays quiet when messages arrive, when the ids name different targets with different results, and in openclaw', () => {
    const s = steps();
    const arriving: StepEvent[] = [];
    for (let i = 0; i < 5; i++) arriving.push(s.act('read_messages', { channel: 'ops', pollId: uuid(i) }), s.ok('read_messages', `1 new message: deploy step ${i} finished`));
    expect(runAll(engineFor(), arriving).filter((d) => d.detector === 'near_duplicate_calls')).toEqual([]);

    const t = steps();
    const orders: StepEvent[] = [];
    for (let i = 0; i < 5; i++) orders.push(t.act('get_order', { orderId: uuid(i) }), t.ok('get_order', `order ${i}: ${i + 1} items, shipped`));
    expect(runAll(engineFor(), orders).filter((d) => d.detector === 'near_duplicate_calls')).toEqual([]);

    const u = steps();
    const polls: StepEvent[] = [];
    for (let i = 0; i < 12; i++) polls.push(u.act('read_messages', { channel: 'ops', pollId: uuid(i) }), u.ok('read_messages', 'No new messages.'));
    expect(runAll(engineFor({ profile: 'openclaw' }), polls)).toEqual([]);
  });

  it('masks request ids, UUIDs, times and epoch stamps, and nothing that names what is asked for', () => {
    expect(maskVolatileArgs('{"channel":"ops","pollId":"p-17","requestId":42}')).toBe('{"channel":"ops","pollId":"<v>","requestId":"<v>"}');
    expect(maskVolatileArgs(`{"after":"2026-01-01T10:00:00Z","id":"${uuid(1)}","t":1767225600123}`)).toBe('{"after":"<time>","id":"<uuid>","t":0}');
    expect(maskVolatileArgs('{"path":"src/a.ts","page":2,"query":"pid 1234"}')).toBe('{"path":"src/a.ts","page":2,"query":"pid 1234"}');
  });
});
