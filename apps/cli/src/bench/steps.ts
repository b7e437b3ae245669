/** The synthetic fleet's step events, shared by `bench pipeline` and `bench floor` (the same bytes on the wire). */
import type { StepEvent } from '@wayfinder/contracts';

/** A healthy agent reads distinct files; a looping one retries the same locked file. */
export function stepOf(agent: number, seq: number, looping: boolean): StepEvent {
  const call = Math.floor(seq / 2);
  const base = { schema: 'wayfinder.step.v1' as const, eventId: `b${agent}-${seq}`, tenantId: `tenant-${agent % 3}`, agentId: `agent-${agent}`, taskId: 'bench', runId: 'r1', seq, ts: new Date().toISOString() };
  if (seq % 2 === 0) {
    return { ...base, kind: 'action', action: { tool: 'read_file', args: { path: looping ? '/locked.csv' : `/data/part-${call}.csv` }, callId: `c${call}` } };
  }
  return looping
    ? { ...base, kind: 'observation', observation: { tool: 'read_file', callId: `c${call}`, ok: false, error: 'EACCES: permission denied' } }
    : { ...base, kind: 'observation', observation: { tool: 'read_file', callId: `c${call}`, ok: true, content: `part ${call}: ${(call * 7919) % 1000} rows` } };
}
