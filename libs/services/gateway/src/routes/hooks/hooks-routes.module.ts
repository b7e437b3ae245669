/** Route family `POST /v1/hooks/pre-tool-use` and `/v1/hooks/post-tool-use` (Claude Code's HTTP hooks, DESIGN §12). */
import { Module } from '@nestjs/common';
import { ToolHooksController } from './tool-hooks.controller';

@Module({ controllers: [ToolHooksController] })
export class HooksRoutesModule {}
