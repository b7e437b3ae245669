/**
 * Structural checks of a milestone graph (DESIGN §5.1): unique ids, known dependencies, no cycle, at most
 * 7 milestones. Each failure names the ids involved; the first failure found is returned.
 */
import { MAX_MILESTONES } from '@wayfinder/contracts';
import { err, ok, type MapError, type Result } from './result';

export interface MilestoneNode {
  id: string;
  dependsOn: readonly string[];
}

/** Validates the graph and returns its milestone ids in a stable topological order. */
export function validateMap(milestones: readonly MilestoneNode[]): Result<string[], MapError> {
  if (milestones.length > MAX_MILESTONES) {
    const extra = milestones.slice(MAX_MILESTONES).map((m) => m.id);
    return err({
      code: 'too_many_milestones',
      ids: extra,
      message: `a map has at most ${MAX_MILESTONES} milestones, got ${milestones.length}; over the cap: ${extra.join(', ')}`,
    });
  }
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const m of milestones) (seen.has(m.id) ? duplicates : seen).add(m.id);
  if (duplicates.size > 0) {
    const ids = [...duplicates];
    return err({ code: 'duplicate_id', ids, message: `duplicate milestone ids: ${ids.join(', ')}` });
  }
  const unknown = milestones.flatMap((m) => m.dependsOn.filter((d) => !seen.has(d)).map((d) => `${m.id}->${d}`));
  if (unknown.length > 0) {
    const ids = [...new Set(unknown.map((u) => u.split('->')[1]))];
    return err({ code: 'unknown_dependency', ids, message: `unknown dependencies: ${unknown.join(', ')}` });
  }
  const order = topologicalOrder(milestones);
  if (order.length < milestones.length) {
    const cycle = findCycle(milestones);
    return err({ code: 'cycle', ids: cycle, message: `dependency cycle: ${[...cycle, cycle[0]].join(' -> ')}` });
  }
  return ok(order);
}

/** Kahn's algorithm, ties broken by declaration order so the order is deterministic. */
export function topologicalOrder(milestones: readonly MilestoneNode[]): string[] {
  const remaining = new Map(milestones.map((m) => [m.id, new Set(m.dependsOn)]));
  const order: string[] = [];
  let progressed = true;
  while (progressed) {
    progressed = false;
    for (const m of milestones) {
      const deps = remaining.get(m.id);
      if (!deps || [...deps].some((d) => remaining.has(d))) continue;
      remaining.delete(m.id);
      order.push(m.id);
      progressed = true;
    }
  }
  return order;
}

function findCycle(milestones: readonly MilestoneNode[]): string[] {
  const deps = new Map(milestones.map((m) => [m.id, m.dependsOn]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'open') return stack.slice(stack.indexOf(id));
    state.set(id, 'open');
    stack.push(id);
    for (const d of deps.get(id) ?? []) {
      const found = visit(d);
      if (found) return found;
    }
    stack.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const m of milestones) {
    const found = visit(m.id);
    if (found) return found.reverse();
  }
  return [];
}
