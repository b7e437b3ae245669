/** Route family `/v1/keys`: a tenant's API keys, for its operators. */
import { Module } from '@nestjs/common';
import { KeysController } from './keys.controller';

@Module({ controllers: [KeysController] })
export class KeysRoutesModule {}
