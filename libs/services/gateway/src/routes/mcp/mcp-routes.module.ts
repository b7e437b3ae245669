/** Route family `/v1/mcp/{server}` (the MCP door, DESIGN §12), over the LLM proxy's exchange for what it passes on untouched. */
import { Module } from '@nestjs/common';
import { ProxyRoutesModule } from '../proxy/proxy-routes.module';
import { McpController } from './mcp.controller';
import { McpSessions } from './mcp-sessions';
import { McpToolCalls } from './mcp-tool-calls';

@Module({ imports: [ProxyRoutesModule], controllers: [McpController], providers: [McpToolCalls, { provide: McpSessions, useValue: new McpSessions() }] })
export class McpRoutesModule {}
