/** A ping-pong deviation names both sides and where the alternation began. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('ping-pong evidence', () => {
  it('carries the paired tool, stability and the first seq of the alternation', () => {
    const engine = engineFor({ profile: 'openclaw', loop: { warning: 4, critical: 8 } });
    const s = steps();
    const events = [s.act('open', { path: '/warmup' }), s.ok('open', 'w')];
    for (let i = 0; i < 3; i++) events.push(s.act('read', { path: '/a' }), s.ok('read', 'same a'), s.act('list', { dir: '/b' }), s.ok('list', 'same b'));
    const pingPong = runAll(engine, events).filter((d) => d.detector === 'ping_pong');
    expect(pingPong[0]).toMatchObject({ level: 'warning', count: 4, atSeq: 8, loopStartSeq: 2 });
    expect(pingPong[0].evidence).toMatchObject({ tool: 'list', pairedTool: 'read', stable: true });
    expect(pingPong[0].message).toContain('"read"');
  });
});
