/**
 * The LLM proxy's passthrough (`/v1/...` paths no route serves): its own module, imported after every
 * other route family and the operators' routes (start-gateway.ts), since Express matches in registration order.
 */
import { Module } from '@nestjs/common';
import { ProxyPassthroughController } from './proxy-passthrough.controller';
import { ProxyRoutesModule } from './proxy-routes.module';

@Module({ imports: [ProxyRoutesModule], controllers: [ProxyPassthroughController] })
export class ProxyPassthroughModule {}
