/** `constraint_violation` for dangerous tools (policy.constraints.dangerousTools): critical at the first call. */
import type { DeviationDraft } from '../types';

export function dangerousToolViolation(tool: string, argsHashHex: string): DeviationDraft {
  return {
    detector: 'constraint_violation', level: 'critical', count: 1, atSeq: 0, loopStartSeq: 0,
    evidence: { tool, argsHash: argsHashHex, constraint: 'dangerous_tool' },
    message: `"${tool}" is on the policy's list of dangerous tools (deletion, publication, production data); it needs a human decision.`,
  };
}
