/**
 * The one list of the gateway's route families: one Nest module each. A new door (OTLP traces, the LLM
 * proxy, agent hooks) is a new module here; the guard and the error filter apply to every one (a family
 * marked `@OpenRoute()`, as the health probes and the OpenAPI description, passes the guard without a key).
 */
import type { Type } from '@nestjs/common';
import { AnchorsRoutesModule } from './routes/anchors/anchors-routes.module';
import { CorrectionsRoutesModule } from './routes/corrections/corrections-routes.module';
import { FleetRoutesModule } from './routes/fleet/fleet-routes.module';
import { HealthRoutesModule } from './routes/health/health-routes.module';
import { HooksRoutesModule } from './routes/hooks/hooks-routes.module';
import { KeysRoutesModule } from './routes/keys/keys-routes.module';
import { McpRoutesModule } from './routes/mcp/mcp-routes.module';
import { OpenApiRoutesModule } from './routes/openapi/openapi-routes.module';
import { PolicyRoutesModule } from './routes/policy/policy-routes.module';
import { ProxyRoutesModule } from './routes/proxy/proxy-routes.module';
import { StepsRoutesModule } from './routes/steps/steps-routes.module';
import { TasksRoutesModule } from './routes/tasks/tasks-routes.module';
import { TracesRoutesModule } from './routes/traces/traces-routes.module';

export const GATEWAY_ROUTE_MODULES: Type<unknown>[] = [StepsRoutesModule, TasksRoutesModule, CorrectionsRoutesModule, FleetRoutesModule, KeysRoutesModule, PolicyRoutesModule, TracesRoutesModule, AnchorsRoutesModule, ProxyRoutesModule, McpRoutesModule, HooksRoutesModule, HealthRoutesModule, OpenApiRoutesModule];
