/**
 * P2 and P11 (PROJECT-RULES.md): a poll recorded with its fresh poll id masked is the same poll for the
 * poll rows, but no repeated call for ping_pong and cycle_repeat. An agent that waits, then polls a chat
 * with a new poll id, again and again (the chat agents' shape: `sleep`, `chat.poll {pollId}`) was flagged
 * as a cycle at its third wait and as a ping-pong at its fifth — calls that were all different as sent —
 * while the poll that does not move is known_poll_no_progress's. The twin: the same loop with the poll's
 * args exact is still a cycle, as before.
 */
import type { Deviation, StepEvent } from '@wayfinder/contracts';
import { engineFor, runAll, steps } from './test-support/step-builder';

/** `n` rounds of a 30 s wait, then a poll of the ops channel that brings nothing new. */
function waitAndPoll(n: number, freshIds: boolean): StepEvent[] {
  const s = steps();
  const events: StepEvent[] = [];
  for (let i = 0; i < n; i++) {
    events.push(s.act('sleep', { seconds: 30 }), s.ok('sleep', 'slept 30 s'));
    events.push(s.act('chat.poll', { channel: 'ops', ...(freshIds && { pollId: `0b9e4c7a-${1000 + i}-4c5e-9f10-12345678901${i % 10}` }) }), s.ok('chat.poll', 'No new messages.'));
  }
  return events;
}

const found = (out: Deviation[]) => out.filter((d) => d.detector !== 'stagnation').map((d) => [d.detector, d.level, d.atSeq, d.count]);

describe('polls with a fresh poll id each time, between waits', () => {
  it('are no cycle and no ping-pong; the poll that does not move is known_poll_no_progress at its tenth', () => {
    const out = found(runAll(engineFor(), waitAndPoll(11, true)));
    expect(out.filter(([detector]) => detector === 'cycle_repeat' || detector === 'ping_pong')).toEqual([]);
    // The eleventh wait (seq 40) and poll (seq 42) follow ten that said the same: OpenClaw's loop.warning,
    // the wait's generic_repeat as upstream, the poll's known_poll_no_progress with its ids masked.
    expect(out).toEqual([
      ['generic_repeat', 'warning', 40, 10],
      ['known_poll_no_progress', 'warning', 42, 10],
    ]);
  });

  it('the twin: the same loop with the poll\'s args exact is still a cycle at the third poll', () => {
    const out = found(runAll(engineFor(), waitAndPoll(3, false)));
    expect(out).toEqual([['cycle_repeat', 'warning', 10, 3]]);
  });
});
