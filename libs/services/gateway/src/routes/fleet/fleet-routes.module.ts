/** Route family `/v1/fleet/events`: the fleet's live stream (the fleet's snapshot `/v1/fleet` is the operations module's). */
import { Module } from '@nestjs/common';
import { FleetEventsController } from './fleet-events.controller';

@Module({ controllers: [FleetEventsController] })
export class FleetRoutesModule {}
