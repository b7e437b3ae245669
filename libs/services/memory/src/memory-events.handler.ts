/**
 * memory-service event handlers (DESIGN §3, §5.5): maps write charters, localized steps write STATE,
 * checkpoints, appended constraints and long-term memories, corrections roll the checkpoint stack back.
 * Steps and corrections are handled per batch over the agents' durable trails (restored first, written
 * back before the commit). A thrown error (a store that does not answer) rejects the batch, so the bus
 * retries it from the stored trails and finally dead-letters it with the reason; nothing is committed
 * before it is written.
 */
import { Controller, Inject, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import type { CognitiveMap, Correction, LocalizedStep } from '@wayfinder/contracts';
import { BatchEventPattern, type Bus } from '@wayfinder/bus';
import { BUS, distinctAgents, PeriodicTask, type DurableAgentStates } from '@wayfinder/service-core';
import { MemoryRecorder } from './memory-recorder';
import { MEMORY_TRAIL_STATES } from './tokens';

@Controller()
export class MemoryEventsHandler implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('memory');
  private readonly eviction: PeriodicTask;

  constructor(
    private readonly recorder: MemoryRecorder,
    @Inject(MEMORY_TRAIL_STATES) private readonly states: DurableAgentStates,
    @Inject(BUS) bus: Bus,
  ) {
    // Trails confirmed since the last rebalance skip the version check before their batches (DESIGN §7).
    states.followRebalances(bus);
    this.eviction = new PeriodicTask({
      name: 'idle agent eviction',
      everyMs: 30_000,
      run: () => this.states.evictIdle(),
      onError: (name, error) => this.logger.error(`${name} failed: ${(error as Error).message}`),
    });
  }

  onModuleInit(): void {
    this.eviction.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.eviction.stop();
  }

  @EventPattern('wayfinder.maps.v1')
  onMap(@Payload() map: CognitiveMap): Promise<void> {
    return this.recorder.onMap(map);
  }

  @BatchEventPattern('wayfinder.localized.v1')
  onLocalized(@Payload() batch: LocalizedStep[]): Promise<void> {
    return this.states.run(
      distinctAgents(batch, (l) => l.step),
      async () => {
        for (const localized of batch) await this.recorder.onLocalized(localized);
      },
    );
  }

  @BatchEventPattern('wayfinder.corrections.v1')
  onCorrections(@Payload() batch: Correction[]): Promise<void> {
    return this.states.run(
      distinctAgents(batch, (c) => c),
      async () => {
        for (const correction of batch) await this.recorder.onCorrection(correction);
      },
    );
  }
}
