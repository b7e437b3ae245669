/**
 * A simulated fleet of LLM agents over several tenants (DESIGN §1, §6), deterministic from a seed. It
 * drives any Wayfinder pipeline the same way: publish `tasks()` and `policies()`, then each round publish
 * `nextSteps()` (one step per working agent) and hand every correction that comes back to
 * `applyCorrection()`. It keeps the ground truth — which agent had which injected failure, from which
 * seq — so a test can assert that every injected failure was detected and corrected and no healthy
 * agent was.
 */
import type { Correction, StepEvent, TaskSpec, TenantPolicy } from '@wayfinder/contracts';
import { CLAIMED_DETECTORS, FAILURE_KINDS, type AgentRecord, type AgentState, type FailureKind, type FleetOptions, type InjectedFailure, type ReceivedCorrection, type Responsiveness, type TenantSetup } from './fleet.types';
import { deriveSeed, Prng } from './prng';
import { SimulatedAgent } from './simulated-agent';
import { TASK_TEMPLATES } from './task-catalog';

/** Three tenants whose thresholds visibly differ: the built-in profiles, with stagnation tightened to fit short runs. */
export const DEFAULT_TENANTS: readonly TenantSetup[] = [
  { tenantId: 'acme', label: 'balanced', policy: { profile: 'balanced', stagnation: { warningSteps: 20, criticalSteps: 40 } } },
  { tenantId: 'globex', label: 'strict', policy: { profile: 'strict', stagnation: { warningSteps: 15, criticalSteps: 30 } } },
  { tenantId: 'initech', label: 'lenient', policy: { profile: 'lenient', stagnation: { warningSteps: 30, criticalSteps: 60 } } },
];

/** How agents answer corrections, per failure (field reports: hints break simple loops; some need more). */
export const DEFAULT_RESPONSES: Readonly<Record<FailureKind, Partial<Record<Responsiveness, number>>>> = {
  same_call: { hint: 0.6, rollback: 0.2, replan: 0.1, human: 0.1 },
  unknown_tool: { hint: 0.5, replan: 0.3, human: 0.2 },
  dead_poll: { hint: 0.5, replan: 0.3, human: 0.2 },
  ping_pong: { hint: 0.3, rollback: 0.4, replan: 0.2, human: 0.1 },
  rephrased_search: { hint: 0.6, rollback: 0.2, replan: 0.1, human: 0.1 },
  monologue: { hint: 0.7, rollback: 0.2, human: 0.1 },
  stagnation: { hint: 0.7, replan: 0.3 },
  drift: { hint: 0.5, rollback: 0.2, replan: 0.3 },
};

const EPOCH_MS = Date.UTC(2026, 0, 1);
const ROUND_MS = 1_000;

export class SimulatedFleet {
  readonly tenants: readonly TenantSetup[];
  private readonly agents: SimulatedAgent[] = [];
  private readonly byKey = new Map<string, SimulatedAgent>();
  private readonly taskSpecs: TaskSpec[] = [];
  private readonly startMs: number;
  private round = 0;

  constructor(readonly options: FleetOptions) {
    if (!Number.isInteger(options.agents) || options.agents < 1) throw new Error(`agents must be a positive integer, got ${options.agents}`);
    this.tenants = options.tenants && options.tenants.length > 0 ? options.tenants : DEFAULT_TENANTS;
    this.startMs = options.startMs ?? EPOCH_MS;
    const rng = new Prng(deriveSeed(options.seed, 'fleet'));
    const failing = this.chooseFailures(rng);
    const perTask = Math.max(1, options.agentsPerTask ?? 1);
    const ts = new Date(this.startMs).toISOString();

    const first = options.firstAgent ?? 0;
    for (let k = 0; k < options.agents; k++) {
      // Agent i of a fleet that starts at firstAgent is the same agent as in one fleet counted from 0.
      const i = first + k;
      const tenant = this.tenants[i % this.tenants.length];
      const group = Math.floor(i / (perTask * this.tenants.length));
      const taskId = `task-${String(group).padStart(3, '0')}`;
      const agentRng = new Prng(deriveSeed(options.seed, `agent-${i}`));
      const template = TASK_TEMPLATES[group % TASK_TEMPLATES.length];
      const subject = template.subjects[Math.floor(group / TASK_TEMPLATES.length) % template.subjects.length];
      const agentId = `agent-${String(i).padStart(4, '0')}`;
      const explicit = options.inject?.find((f) => f.agent === i);
      const kind = options.inject ? explicit?.kind : failing.get(k);
      const agent = new SimulatedAgent({
        tenantId: tenant.tenantId,
        agentId,
        taskId,
        runId: 'run-1',
        template,
        subject,
        rng: agentRng,
        startRound: options.stagger ? agentRng.int(0, options.stagger) : 0,
        recovery: options.recovery ?? 'rank',
        recoveryRng: new Prng(deriveSeed(options.seed, `recovery-${i}`)),
        ...(kind
          ? { failure: { kind, respondsTo: explicit?.respondsTo ?? agentRng.weighted(options.responses ?? DEFAULT_RESPONSES[kind]), claimed: CLAIMED_DETECTORS[kind] } }
          : {}),
      });
      this.agents.push(agent);
      this.byKey.set(`${tenant.tenantId}\u0000${agentId}`, agent);
      let spec = this.taskSpecs.find((t) => t.tenantId === tenant.tenantId && t.taskId === taskId);
      if (!spec) {
        spec = {
          schema: 'wayfinder.task.v1',
          eventId: `task:${tenant.tenantId}:${taskId}`,
          tenantId: tenant.tenantId,
          ts,
          taskId,
          goal: template.goal(subject),
          milestones: template.milestones.map((m, k) => ({
            id: m.id,
            description: m.description,
            dependsOn: k === 0 ? [] : [template.milestones[k - 1].id],
            validator: { type: 'marker' as const },
          })),
          ...(template.anchor ? { anchors: [{ id: `a-${template.anchor.unit}`, text: template.anchor.text, target: template.anchor.target, unit: template.anchor.unit, comparator: 'atLeast' as const, hard: true }] } : {}),
          agentIds: [],
        };
        this.taskSpecs.push(spec);
      }
      spec.agentIds!.push(agentId);
    }
  }

  /** One TaskSpec per task (per agent, or per group of `agentsPerTask` agents of a tenant). */
  tasks(): TaskSpec[] {
    return this.taskSpecs.map((t) => ({ ...t, agentIds: [...(t.agentIds ?? [])] }));
  }

  /** One TenantPolicy per tenant. */
  policies(): TenantPolicy[] {
    const ts = new Date(this.startMs).toISOString();
    return this.tenants.map((t) => ({ schema: 'wayfinder.policy.v1', eventId: `policy:${t.tenantId}:1`, tenantId: t.tenantId, ts, policy: t.policy }));
  }

  /** The next round: one step from every agent that is working. `nowMs` stamps them (default: simulated time). */
  nextSteps(nowMs?: number): StepEvent[] {
    const ts = new Date(nowMs ?? this.startMs + this.round * ROUND_MS).toISOString();
    const out: StepEvent[] = [];
    for (const agent of this.agents) {
      const step = agent.nextStep(this.round, ts);
      if (step) out.push(step);
    }
    this.round++;
    return out;
  }

  /** Hands a correction to its agent; undefined when no agent of the fleet has that tenant and id. */
  applyCorrection(correction: Correction): ReceivedCorrection | undefined {
    return this.byKey.get(`${correction.tenantId}\u0000${correction.agentId}`)?.applyCorrection(correction);
  }

  /** Resumes a frozen agent of the fleet (an operator's resume); false when it has none such. */
  resume(tenantId: string, agentId: string): boolean {
    return this.byKey.get(`${tenantId}\u0000${agentId}`)?.resume() ?? false;
  }

  /** True when every agent has finished or been frozen. */
  get settled(): boolean {
    return this.agents.every((a) => !a.active);
  }

  get rounds(): number {
    return this.round;
  }

  /** Every injected failure, with the seq where it started (null if the agent has not reached it yet). */
  groundTruth(): InjectedFailure[] {
    return this.agents.flatMap((a) => (a.failure ? [{ ...a.failure }] : []));
  }

  isInjected(tenantId: string, agentId: string): boolean {
    return this.byKey.get(`${tenantId}\u0000${agentId}`)?.failure !== undefined;
  }

  agentRecords(): AgentRecord[] {
    return this.agents.map((a) => a.record());
  }

  countByState(): Record<AgentState, number> {
    const counts: Record<AgentState, number> = { waiting: 0, working: 0, looping: 0, recovering: 0, done: 0, frozen: 0 };
    for (const a of this.agents) counts[a.status]++;
    return counts;
  }

  private chooseFailures(rng: Prng): Map<number, FailureKind> {
    const n = this.options.agents;
    const count = Math.min(n, this.options.failures ?? Math.round(n * (this.options.failureRate ?? 0.3)));
    const kinds = this.options.kinds && this.options.kinds.length > 0 ? this.options.kinds : FAILURE_KINDS;
    const order = rng.shuffle(kinds);
    const chosen = rng.shuffle(Array.from({ length: n }, (_, i) => i)).slice(0, count);
    return new Map(chosen.map((agent, k) => [agent, order[k % order.length]]));
  }
}
