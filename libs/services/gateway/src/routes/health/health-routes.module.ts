/** Route family `/health/live`, `/health/ready`: probes on the gateway's port, no key. */
import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';

@Module({ controllers: [HealthController] })
export class HealthRoutesModule {}
