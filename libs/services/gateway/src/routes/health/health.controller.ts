/**
 * `GET /health/live` and `GET /health/ready` on the gateway's own port, without a key, so a load balancer
 * or an orchestrator probes the port it routes to. Live answers while the server serves; ready runs the
 * process's readiness checks (GatewayHealth: the runtime passes the Kafka and Redis checks its health
 * server runs) as @wayfinder/health does: 200 when all pass, 503 naming each check otherwise.
 */
import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { runChecks, type ReadinessReport } from '@wayfinder/health';
import { OpenRoute } from '../../auth/tenant.guard';
import { GATEWAY_HEALTH, type GatewayHealth } from '../../tokens';

const DEFAULT_CHECK_TIMEOUT_MS = 2_000;

@OpenRoute()
@Controller('health')
export class HealthController {
  constructor(@Inject(GATEWAY_HEALTH) private readonly health: GatewayHealth) {}

  @Get('live')
  @Header('cache-control', 'no-store')
  live(): { status: 'live' } {
    return { status: 'live' };
  }

  @Get('ready')
  @Header('cache-control', 'no-store')
  async ready(@Res({ passthrough: true }) res: { status(code: number): unknown }): Promise<ReadinessReport> {
    const report = await runChecks(this.health.checks, this.health.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS);
    if (report.status !== 'ready') res.status(503);
    return report;
  }
}
