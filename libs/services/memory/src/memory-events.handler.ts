/**
 * memory-service event handlers (DESIGN §3, §5.5): maps write charters, localized steps write STATE,
 * checkpoints, appended constraints and long-term memories, corrections roll the checkpoint stack back.
 * A thrown error (a store that does not answer) rejects the batch, so the bus retries it and finally
 * dead-letters it with the reason; nothing is committed before it is written.
 */
import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import type { CognitiveMap, Correction, LocalizedStep } from '@wayfinder/contracts';
import { MemoryRecorder } from './memory-recorder';

@Controller()
export class MemoryEventsHandler {
  constructor(private readonly recorder: MemoryRecorder) {}

  @EventPattern('wayfinder.maps.v1')
  onMap(@Payload() map: CognitiveMap): Promise<void> {
    return this.recorder.onMap(map);
  }

  @EventPattern('wayfinder.localized.v1')
  onLocalized(@Payload() localized: LocalizedStep): Promise<void> {
    return this.recorder.onLocalized(localized);
  }

  @EventPattern('wayfinder.corrections.v1')
  onCorrection(@Payload() correction: Correction): Promise<void> {
    return this.recorder.onCorrection(correction);
  }
}
