/** `GET /v1/openapi.json`: the gateway's OpenAPI 3.1 description (openapi/gateway-openapi.ts), without a key. */
import { Controller, Get, Header } from '@nestjs/common';
import { OpenRoute } from '../../auth/tenant.guard';
import { gatewayOpenApi } from '../../openapi/gateway-openapi';

@OpenRoute()
@Controller('v1/openapi.json')
export class OpenApiController {
  @Get()
  @Header('cache-control', 'public, max-age=300')
  document(): Record<string, unknown> {
    return gatewayOpenApi();
  }
}
