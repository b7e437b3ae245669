/**
 * v3 agent state documents (written before the call records had a fifth flag bit, RecordFlag.MaskedArgs,
 * taken from the callId's bits) are restored with that bit cleared: a record whose callId hash had it set
 * is no masked poll, and the alternation it is part of is still seen.
 */
import type { StepEvent } from '@wayfinder/contracts';
import { engineFor, runAll } from './test-support/step-builder';

// Written by the v3 build (af18bdf): balanced profile, read a.txt / grep x alternating four times (seq 0–15),
// with callIds whose hashes all have bit 4 set; cycle_repeat warned at seq 10.
const V3_DOCUMENT = 'AwABAI2s4wGhD3QQ29pEDq84oSwvbfMHH/WPPR91Pzr36WAhAgAAAHIxBQAAAHRhc2sxAAAAAAQAAABncmVwCAAAAAgAAAAAAAAAAQAAAAAAAAAAAAAAAAAAAAABAAAAJgAAAGN5Y2xlX3JlcGVhdHx3YXJuaW5nfGQ3Yjg3MWRiLzVhNTZhZTE0AAAAAAAA8D8AAAAA3wAAAB8JAb0UrlZaZjZrRgAAAAAAAAAA8WFl9p2NXo3bcbjXRib+1AAAAAACAAAAseo53h8JAb0UrlZaZjZrRgAAAAAEAAAAEQzHTp2NXo3bcbjXRib+1AAAAAAGAAAAkdtBtB8JAb0UrlZaZjZrRgAAAAAIAAAAkQRwbZ2NXo3bcbjXRib+1AAAAAAKAAAAMfIK3x8JAb0UrlZaZjZrRgAAAAAMAAAA0bkpsJ2NXo3bcbjXRib+1AAAAAAOAAAAUQzWbR8JAb0AAAAAAAAAAAAAAAADAAAABwAAAOgDAAAMAAAACAAAAOLvmncAAAAAZjZrRgIAAACdjV6NAAAAAAAAAAAAAAAAAwAAAAgAAADoAwAADgAAAAoAAAAAAAAAAAAAAEYm/tQCAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAIAAAAAAAAAAAAAAAIAAAAAAAAAAgAAAAAAAAAAQAAAAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACIiIiIiIiIjIiIiIiIiIiEiIiIiIiIiIiIiIiIiIiIiIiIiPiIiIiIiIiIiIiIiIiIiIiIiIgYiIiISIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIj4iIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiI+IiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIGIiIiIiIiIiIiIiIiIiIiIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABAAAAAAIfCQG9EAAAAHsicGF0aCI6ImEudHh0In0BEAAAAHsicGF0aCI6ImEudHh0In0AnY1ejQ8AAAB7InBhdHRlcm4iOiJ4In0BDwAAAHsicGF0dGVybiI6IngifQBA/oH/';
const CALL_IDS = ['call-0', 'call-4', 'call-6', 'call-7', 'call-10', 'call-11', 'call-12', 'call-14', 'call-15', 'call-16'];

function rounds(n: number): StepEvent[] {
  let seq = 0;
  const base = () => ({ schema: 'wayfinder.step.v1' as const, eventId: `e${seq}`, tenantId: 't1', agentId: 'a1', taskId: 'task1', runId: 'r1', seq: seq++, ts: '2026-01-01T00:00:00.000Z' });
  const events: StepEvent[] = [];
  for (let i = 0; i < n; i++) {
    const [a, b] = [CALL_IDS[2 * i], CALL_IDS[2 * i + 1]];
    events.push({ ...base(), kind: 'action', action: { tool: 'read', args: { path: 'a.txt' }, callId: a } });
    events.push({ ...base(), kind: 'observation', observation: { tool: 'read', ok: true, content: 'A', callId: a } });
    events.push({ ...base(), kind: 'action', action: { tool: 'grep', args: { pattern: 'x' }, callId: b } });
    events.push({ ...base(), kind: 'observation', observation: { tool: 'grep', ok: true, content: 'B', callId: b } });
  }
  return events;
}

describe('v3 agent state documents', () => {
  it('restore with no record read as a masked poll: the alternation is a ping-pong at its tenth call, as without the restore', () => {
    const events = rounds(5);
    const restored = engineFor();
    restored.importAgentState('t1', 'a1', new Uint8Array(Buffer.from(V3_DOCUMENT, 'base64')));
    const decisions = (list: ReturnType<typeof runAll>) => list.filter((d) => d.detector !== 'stagnation').map((d) => [d.detector, d.level, d.count, d.atSeq]);
    const fresh = engineFor();
    expect(decisions(runAll(fresh, events.slice(0, 16)))).toEqual([['cycle_repeat', 'warning', 3, 10]]);
    const fromRestored = decisions(runAll(restored, events.slice(16)));
    expect(fromRestored).toEqual(decisions(runAll(fresh, events.slice(16))));
    expect(fromRestored).toEqual([['ping_pong', 'warning', 10, 18]]);
  });
});
