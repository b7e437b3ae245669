/**
 * `POST /v1/traces`: OTLP/HTTP trace export (protobuf or JSON, gzip or not), the tenant from the bearer
 * key. A thin door over OtlpExportHandler (libs/services/otlp-normalizer): it decodes and checks the
 * spans, queues them on `wayfinder.otlp.v1` and answers per the OTLP specification (200 with partial
 * success naming rejected spans; 400/413/415; 429 with Retry-After over the tenant's ingest limit, spans
 * counted like /v1/steps' events; 503 with Retry-After; error bodies in the request's encoding). The body
 * is read raw (the app's body parser is off) with the gateway's size limit.
 */
import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Bus } from '@wayfinder/bus';
import { BUS } from '@wayfinder/service-core';
import { OtlpExportHandler } from '@wayfinder/service-otlp-normalizer';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { CurrentTenant } from '../../auth/tenant.guard';
import { ApiError } from '../../http/api-error';
import { readRawBody } from '../../http/request-body';
import { IngestLimiter } from '../../ingest-limiter';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../../tokens';

@Controller('v1/traces')
export class TracesController {
  private readonly handler: OtlpExportHandler;

  constructor(
    @Inject(BUS) bus: Bus,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    limiter: IngestLimiter,
  ) {
    this.handler = new OtlpExportHandler(bus, {
      admit: (tenantId, spans) => {
        try {
          limiter.take(tenantId, spans);
          return undefined;
        } catch (error) {
          if (error instanceof ApiError && (error.getStatus() === 429 || error.getStatus() === 413)) return { status: error.getStatus() as 413 | 429, error: error.body.error, retryAfterSeconds: error.retryAfterSeconds };
          throw error;
        }
      },
    });
  }

  @Post()
  async post(@Req() req: IncomingMessage, @Res() res: ServerResponse, @CurrentTenant() tenant: ResolvedTenant): Promise<void> {
    const body = await readRawBody(req, this.options.maxBodyBytes);
    const encoding = req.headers['content-encoding'];
    const answer = await this.handler.handleOtlpExport(body, req.headers['content-type'], Array.isArray(encoding) ? encoding.join(',') : encoding, tenant.tenantId);
    res.writeHead(answer.status, answer.headers);
    res.end(typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body));
  }
}
