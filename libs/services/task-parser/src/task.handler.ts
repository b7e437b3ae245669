/**
 * task-parser (DESIGN §3, §5.1): a TaskSpec becomes a CognitiveMap, stored for late readers and published
 * on the compacted maps topic. A task that passes the schema but not map validation (a cycle, an unknown
 * dependency, too many milestones) goes to the tasks DLQ with the error naming the milestone ids.
 */
import { Controller, Inject, Logger } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { CognitiveMap, TaskSpec } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import { BusContext } from '@wayfinder/bus';
import { mapEventId, parseTask } from '@wayfinder/cognitive-map';
import { BUS, MAP_STORE, deadLetter, type MapStore } from '@wayfinder/service-core';

@Controller()
export class TaskHandler {
  private readonly logger = new Logger('task-parser');

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(MAP_STORE) private readonly maps: MapStore,
  ) {}

  @EventPattern('wayfinder.tasks.v1')
  async onTask(@Payload() task: TaskSpec, @Ctx() context: BusContext): Promise<void> {
    const result = parseTask(task);
    if (!result.ok) {
      const reason = `${result.error.code}: ${result.error.message}`;
      this.logger.warn(`tenant ${task.tenantId} task ${task.taskId} refused: ${reason}`);
      await deadLetter(this.bus, context.getDelivered(), reason);
      return;
    }
    const previous = await this.maps.get(task.tenantId, task.taskId);
    let map = result.value;
    if (previous && sameRoute(previous, map)) {
      map = previous; // a redelivered task: publish the same version again, idempotently
    } else if (previous) {
      // A changed task gets the next version so that every consumer replaces its copy.
      const version = previous.version + 1;
      map = { ...map, version, eventId: mapEventId(task.taskId, version) };
    }
    await this.maps.put(map);
    await this.bus.publish('wayfinder.maps.v1', [map]);
  }
}

function sameRoute(a: CognitiveMap, b: CognitiveMap): boolean {
  const route = (m: CognitiveMap) => JSON.stringify([m.goal, m.milestones, m.anchors, m.constraints, m.maxSteps, m.expectedStepMs]);
  return route(a) === route(b);
}
