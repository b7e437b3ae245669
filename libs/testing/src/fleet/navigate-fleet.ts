/**
 * Runs a simulated fleet through the in-process Navigator (createNavigator: localization, detection and,
 * unless turned off, the correction ladder) with each tenant's policy resolved as the services resolve
 * it. No bus and no services: the quickest way to check what the detectors make of the fleet, and the
 * reference a pipeline run can be compared with.
 */
import type { Correction, Deviation, Escalation, PolicySettings } from '@wayfinder/contracts';
import { resolvePolicy } from '@wayfinder/detection';
import { createNavigator } from '@wayfinder/navigation';
import type { SimulatedFleet } from './simulated-fleet';

export interface NavigatedFleet {
  rounds: number;
  steps: number;
  deviations: Deviation[];
  corrections: Correction[];
  escalations: Escalation[];
}

export function navigateFleet(fleet: SimulatedFleet, options: { rounds: number; corrections?: boolean }): NavigatedFleet {
  const policies = new Map<string, PolicySettings>(fleet.policies().map((p) => [p.tenantId, resolvePolicy(p.policy)]));
  const navigator = createNavigator({
    policy: (subject) => policies.get(subject.tenantId) ?? resolvePolicy(),
    tasks: fleet.tasks(),
    corrections: options.corrections ?? true,
  });
  const out: NavigatedFleet = { rounds: 0, steps: 0, deviations: [], corrections: [], escalations: [] };
  for (; out.rounds < options.rounds && !fleet.settled; out.rounds++) {
    const arrived: Correction[] = [];
    for (const step of fleet.nextSteps()) {
      out.steps++;
      const result = navigator.onStep(step);
      out.deviations.push(...result.deviations);
      out.escalations.push(...result.escalations);
      arrived.push(...result.corrections);
    }
    // As in the pipeline run: corrections reach their agents before the agents' next steps.
    for (const c of arrived) {
      out.corrections.push(c);
      fleet.applyCorrection(c);
    }
  }
  return out;
}
