/**
 * `POST /v1/traces`: OTLP/HTTP trace export (protobuf or JSON, gzip or not), the tenant from the bearer
 * key. A thin door over OtlpExportHandler (libs/services/otlp-normalizer): it decodes and checks the
 * spans, queues them on `wayfinder.otlp.v1` and answers per the OTLP specification (200 with partial
 * success naming rejected spans; 400/413/415 `{error, field?}`; 503 with Retry-After). The body is read
 * raw (the app's body parser is off) with the gateway's size limit.
 */
import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Bus } from '@wayfinder/bus';
import { BUS } from '@wayfinder/service-core';
import { OtlpExportHandler } from '@wayfinder/service-otlp-normalizer';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { CurrentTenant } from '../../auth/tenant.guard';
import { readRawBody } from '../../http/request-body';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../../tokens';

@Controller('v1/traces')
export class TracesController {
  private readonly handler: OtlpExportHandler;

  constructor(
    @Inject(BUS) bus: Bus,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
  ) {
    this.handler = new OtlpExportHandler(bus);
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
