/** Route family `GET /v1/openapi.json`: the API's description, no key. */
import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller';

@Module({ controllers: [OpenApiController] })
export class OpenApiRoutesModule {}
